/** Helpers of the reference screens' browser tests: accounts made through the API, and a .docx. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, unique } from './helpers';

export const table = (page: Page) => page.getByRole('table');
export const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
export const notice = (page: Page, text: string) => page.getByText(text, { exact: true });

export async function search(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
}

export async function pick(page: Page, label: string, option: string, typed = option.slice(0, 4)) {
  const input = page.getByRole('combobox', { name: label });
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A new account registered through the API (a seller, as registration makes), signed in. */
export async function registered(request: APIRequestContext, name = unique('Reference User ')) {
  const email = `${unique('ref').toLowerCase()}@example.com`;
  const res = await api(request, '/user', {
    name, email, phone: `+1555${Math.floor(Math.random() * 1e7)}`, password: 'reference-pass-1', abilities: '[1,2]', source: 'inbuilt',
  });
  expect(res.status).toBe(true);
  return { name, email, password: 'reference-pass-1', token: res.detail.token as string, id: Number(res.detail.id) };
}

/** A stored (uncompressed) zip of these entries: enough to be a .docx. */
export function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
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
