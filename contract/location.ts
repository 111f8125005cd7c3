/**
 * The visitor location of SPEC §3.22, as the IP geolocation service answers it, and the built-in
 * default used when the service fails or names no currency: Liberia, whose currency code is USD
 * (DESIGN D10). The reference server's offline stand-in answers the same shape.
 */
export interface VisitorLocation {
  connection?: { ip?: string; ip_version?: number };
  currency?: { code?: string | string[] };
  location?: {
    capital?: string;
    city?: string;
    continent?: { code?: string; name?: string };
    country?: {
      alpha_2?: string; alpha_3?: string; dialing_code?: string[]; emoji?: string; eu_member?: boolean; name?: string;
      subdivision?: string; subdivision_id?: string; zip_code?: string;
    };
    latitude?: number;
    longitude?: number;
  };
  success?: boolean;
  time?: { zone?: string };
}

export const DEFAULT_LOCATION: VisitorLocation = {
  connection: { ip: '', ip_version: 4 },
  currency: { code: ['USD', 'LRD'] },
  location: {
    capital: 'Monrovia',
    city: 'Monrovia',
    continent: { code: 'AF', name: 'Africa' },
    country: {
      alpha_2: 'LR', alpha_3: 'LBR', dialing_code: ['231'], emoji: '🇱🇷', eu_member: false, name: 'Liberia',
      subdivision: 'Montserrado', subdivision_id: 'MO', zip_code: '1000',
    },
    latitude: 6.3156,
    longitude: -10.8074,
  },
  success: true,
  time: { zone: 'Africa/Monrovia' },
};

/** SPEC §3.22: the first of the location's currency codes, or undefined when it names none. */
export function currencyOf(location: VisitorLocation | null | undefined): string | undefined {
  const code = location?.currency?.code;
  const first = Array.isArray(code) ? code[0] : code;
  return typeof first === 'string' && /^[A-Za-z]{3}$/.test(first.trim()) ? first.trim().toUpperCase() : undefined;
}

/** The location to use: the service's answer when it names a currency, otherwise the default. */
export const usableLocation = (answer: unknown): VisitorLocation =>
  answer && typeof answer === 'object' && currencyOf(answer as VisitorLocation) ? (answer as VisitorLocation) : DEFAULT_LOCATION;
