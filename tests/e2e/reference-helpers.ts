/** Helpers of the reference screens' browser tests: accounts made through the API, and a .docx. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, unique } from './helpers';
import { zip } from '../fixtures/zip';

export const table = (page: Page) => page.getByRole('table');
export const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
export const notice = (page: Page, text: string) => page.getByText(text, { exact: true });

export async function search(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
}

/** A new account registered through the API (a seller, as registration makes, unless a buyer's abilities are asked for), signed in. */
export async function registered(request: APIRequestContext, name = unique('Reference User '), abilities: '[1,2]' | '[1]' = '[1,2]') {
  const email = `${unique('ref').toLowerCase()}@example.com`;
  const res = await api(request, '/user', {
    name, email, phone: `+1555${Math.floor(Math.random() * 1e7)}`, password: 'heron-pass-91', abilities, source: 'inbuilt',
  });
  expect(res.status).toBe(true);
  return { name, email, password: 'heron-pass-91', token: res.detail.token as string, id: Number(res.detail.id) };
}

export const DOCX = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document>My CV</w:document>' });

/** Uploads a CV as this user (POST /upload-docx) and answers its address. */
export async function uploadCv(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.post('/api/upload-docx', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { file: { name: 'cv.docx', mimeType: 'application/octet-stream', buffer: DOCX }, tag: 'cv' },
  });
  const body = await res.json();
  expect(body.status).toBe(true);
  return body.detail.files[0] as string;
}
