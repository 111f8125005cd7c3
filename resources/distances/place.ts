/** SPEC §2.25: a pick of the location pickers as one location, 'country,state,area'. */
export function placeText(pick: { country: string; state: string; city: string }): string {
  return [pick.country, pick.state, pick.city].map((part) => part.replace(/,/g, ' ').trim()).filter(Boolean).join(',');
}
