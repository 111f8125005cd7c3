/**
 * What a resource file declares: everything the console knows about one entity. Generic screens
 * in src/screens render every declaration the same way (SPEC §2.9). Labels are i18n keys under
 * `resources.<name>` (see i18n/en.ts); the contract entry gives paths, search and required flags.
 */
import type { EntityName } from '../contract';

/** How a column shows its value (SPEC §2.10–§2.27). */
export type CellKind =
  | 'text'
  /** Green dot when active (is_active 1/true, state 'active'), red otherwise. */
  | 'status'
  /** 'city, state, country' from the record's address. */
  | 'location'
  /** A numbered list '1).name' of the records in an array. */
  | 'numbered'
  /** 'Out of Stock' when 0 or less. */
  | 'stock';

export interface Column {
  /** Path in the record, e.g. 'name', 'address.zip', 'seller.name'. */
  source: string;
  cell?: CellKind;
}

/** The form inputs a declaration can ask for. */
export type InputKind =
  | 'text'
  | 'textarea'
  | 'number'
  | 'email'
  /** A fixed list: `choices` are values, their labels are i18n keys `resources.<name>.choices.<value>`. */
  | 'select'
  /** Country, state and city pickers writing country/state/city and their details (SPEC §2.30). */
  | 'location'
  /** Pick a record of another resource (`reference`), storing its id. */
  | 'reference'
  /** Pick an existing value or choose 'Create New' and type one (SPEC §2.30). */
  | 'pickOrType'
  /** A currency code from the exchange rates. */
  | 'currency';

export interface Field {
  /** The form value's name, as the generic payload reads it (SPEC §3.24). */
  source: string;
  input?: InputKind;
  /** Required in the form. Defaults to the contract's required flag for the same field. */
  required?: boolean;
  choices?: readonly (string | number)[];
  /** 'reference': the resource to pick from; 'pickOrType': where the options come from. */
  reference?: string;
  /** 'pickOrType': read options from this record path instead ('subcategories'), keeping these keys. */
  optionsFrom?: { path: string; carry?: readonly string[] };
  /** Location levels (default country, state, city). */
  levels?: readonly ('country' | 'state' | 'city')[];
  /** Starts from this record path when the record's own value has another name (category_name ← name). */
  from?: string;
  /** Has a placeholder under `resources.<name>.placeholders.<source>`. */
  placeholder?: boolean;
}

/** A radio group of the Control tab (SPEC §2.30 option forms). */
export interface ControlOption {
  source: string;
  /** Choice values; labels are i18n keys `resources.<name>.choices.<value>`. */
  choices: readonly string[];
}

export interface ResourceDeclaration {
  /** Route segment and react-admin resource name; lower-cased, the access token (SPEC §6.2). */
  name: string;
  /** Its entry in the contract's endpoint table. */
  entity: EntityName;
  /** The seller variant's route segment ('my-shops'); the contract's owner rule scopes it. */
  seller?: string;
  columns: readonly Column[];
  /** The form tab, labelled 'Add / Edit' or 'Editor' (SPEC §2.9). Absent: no form tab. */
  form?: { tab: 'add_edit' | 'editor'; fields: readonly Field[] };
  /** The Control tab. Absent: no Control tab. */
  control?: { options: readonly ControlOption[]; submit?: boolean; remove?: boolean };
  /** A permanent filter of the list (Brands: product_id 0). */
  filter?: Readonly<Record<string, unknown>>;
}
