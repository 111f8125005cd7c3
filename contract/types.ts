/**
 * Entity types of SPEC §3 as they travel in answers. Ids are numbers; is_active is a boolean or 0/1.
 */
export type Id = number;
export type Active = boolean | 0 | 1;

export interface Address {
  street_name: string; zip: string; city: string; state: string; country: string;
  city_details?: unknown; state_details?: unknown; country_details?: unknown;
}
export interface Bank {
  bank_name: string; bank_country: string; swift_code: string; sort_code: string;
  account_name: string; account_number: string;
}
export interface Paypal { paypal_email: string; name_of_seller: string }

export interface User {
  id: Id; is_active: Active; name: string; email: string; phone: string; applications?: string | null;
  /** JSON-encoded array of numbers, e.g. '[1,2]'. */
  abilities: string;
  /** JSON-encoded array of menu tokens, e.g. '["shops"]'. */
  granted_accesses: string;
  shops: { id: Id; name: string }[];
  currency?: string | null;
  street_name?: string; city?: string; state?: string; country?: string; zip?: string;
}

export interface Shop {
  id: Id; is_active: Active; name: string; description: string; owner_id: Id; category_id: Id;
  category: { id: Id; name: string } | null;
  seller: { id: Id; name: string } | null;
  address: Address; bank: Bank; paypal: Paypal;
}

export interface ProductImage { id: string | number; image: string }
export interface Product {
  id: Id; name: string; description: string; price: number; sale_price: number; in_stock: number;
  unit: string; height: number | null; width: number | null; length: number | null; weight: number | null;
  sku: string; quantity: number; shop_id: Id;
  state: 'active' | 'draft'; premier: 'yes' | 'no'; product_type: 'new' | 'preown';
  image: ProductImage[] | null;
  category: { id: Id; name: string } | null; subcategory: { id: Id; name: string } | null;
  currency: { code: string };
  variety_option: { color?: string; size?: string } | null;
  band: { band_id: Id | null; band_name: string };
  brand: { name: string };
  shop: { id: Id; name: string; owner_id: Id } | null;
}

export interface OrderAddress { street_name: string; city: string; state: string; country: string; zip: string }
export interface Order {
  id: Id; parent_id: Id | null; payment_gateway: string; tracking_number: string; number_of_items: number;
  status: { id: number; name: string } | null; currency: string; customer_id: Id | null; created_at: string;
  is_active: Active; dispatch_status: string | null;
  total: number; total_fxws: number | null; paid_total: number; paid_total_fxws: number | null;
  delivery_fee: number | null; logistics: string | null;
  shipping_address: OrderAddress | null;
  shop: { id: Id; name: string; owner_id: Id } | null;
}

export interface MailTemplate {
  id: Id; is_active: Active; subject: string; message: string; from_email: string;
  serial: string | null; dispatch_status: string | null;
}

export interface Subcategory { id: Id; name: string; serial: string | null }
export interface Category {
  id: Id; name: string; commission_currency: string; commission_flat_rate: number;
  commission_monthly: number | null; subcategories: Subcategory[];
}

export interface Brand { id: Id; name: string; type: 'popular' | 'upcoming'; product_id: Id; is_active: Active }

export interface Subscription {
  id: Id; end_date: string; start_date: string; payment_gateway: string; shop_id: Id; is_active: Active;
  type: string; nature: string; period: string; unit: string; total_clicks: number; amount: number; currency: string;
}
export interface SubscriptionPlan {
  id: Id; type: string; nature: string; period: string; unit: string; total_clicks: number;
  amount: number; currency: 'USD'; is_active: Active;
}

export interface Job {
  id: Id; title: string; description: string; qualification: string; details: string; expiry: string;
  state: string; country: string; is_active: Active;
}
export interface Applicant {
  id: Id; title: string; cv: string; country: string;
  user: { id: Id; name: string; email: string; phone: string } | null;
}
export interface SupportMessage { id: Id; country: string; title: string; message: string; user: { id: Id; name: string } | null }
export interface OrderStatus { id: Id; name: string }
export interface ExchangeRate {
  id: Id; code: string; country: string; currency: string; currency_symbol: string;
  value_per_dollar: number; is_active: Active;
}
/** A shipping class as the delivery quote offers it (server and cart). */
export interface OfferedClass { id: number; means: string; duration: string; amount: number; currency: string; note: string | null }

export interface ShippingClass { id: Id; amount: number; currency: 'USD'; means: string; duration: string; note: string }
export interface MileRate { id: Id; country: string; currency: 'USD'; value_per_mile: number }
export interface CustomDistance { id: Id; location_A: string; location_B: string; distance_km: number }
export interface DeletionRequest {
  id: Id; is_active: Active; deletion_status: 'No action' | 'Deleted' | 'Deletion rejected by admin';
  customer: string; feedback: string; customer_id: Id;
}
export interface ChatMessage { sent: 0 | 1; recieved: 0 | 1; message: string }
export interface Chat {
  id: Id; admin_online: boolean; admin_name: string | null; received_time: string | null;
  user_name: string; user_email: string; user_ip_address: string; chats: ChatMessage[];
}

/**
 * SPEC §7.2: what login and register answer in `detail`; enrol_second_factor: the server requires
 * this admin or seller to set up a second factor before anything else (issue 26).
 */
export interface AuthDetail { token: string; id: Id; enrol_second_factor?: boolean }

/** The kinds of second factor (issue 26). */
export type SecondFactorKind = 'totp' | 'passkey' | 'recovery';

/**
 * What a refusal that needs a second factor carries in `detail`: the factors the user can present,
 * passkey options at sign-in (for navigator.credentials.get), step_up when a signed-in call needs a
 * fresh one.
 */
export interface SecondFactorDetail { second_factor: SecondFactorKind[]; passkey?: Record<string, unknown>; step_up?: boolean }
