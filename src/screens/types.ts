/**
 * The renderer's vocabulary: what a resource file may ask of the console's screens. Kinds of column,
 * form field and Control option are discriminated unions, rendered by exhaustive switches in this
 * folder; whatever only one entity needs is a `custom` kind naming a component of the resource's own
 * folder. Components are given as loaders (`() => import('./ImagesCell')`), so resource files stay
 * pure data that the server can read, and each screen's parts load in their own chunk. Resource files
 * (resources/types.ts) import it from here.
 *
 * Labels are i18n keys under `resources.<name>` (see i18n/en.ts): `fields.<source>` for columns,
 * `inputs.<source>` for form inputs and Control options, `choices.<value>`, `placeholders.<source>`.
 */
import type { ComponentType, ReactNode } from 'react';
import type { RaRecord, ResourceCallbacks } from 'react-admin';
import type { ResourceApi } from '../../contract';

/** A component loaded when first shown. */
export type Loader<P = object> = () => Promise<{ default: ComponentType<P> }>;

interface ColumnBase {
  /** Path in the record, e.g. 'name', 'address.zip', 'seller.name'. */
  source: string;
  /** Left out of the table until the user picks it in the column chooser. */
  hidden?: boolean;
}

export interface CellProps {
  record: RaRecord;
  source: string;
  /** The resource file's name, for i18n keys. */
  name: string;
}

/** How a column shows its value (SPEC §2.10–§2.27). */
export type Column =
  | (ColumnBase & { kind: 'text' })
  /** Green dot when on (is_active 1/true, state 'active'), red otherwise. */
  | (ColumnBase & { kind: 'status' })
  /** Parts of a group joined with commas: a shop's 'city, state, country', an order's shipping address. */
  | (ColumnBase & { kind: 'joined'; parts: readonly string[] })
  /** A numbered list '1).name' of the records in an array. */
  | (ColumnBase & { kind: 'numbered' })
  | (ColumnBase & { kind: 'custom'; component: Loader<CellProps> });

interface FieldBase {
  /** The form value's name, as the generic payload reads it (SPEC §3.24). */
  source: string;
  /** Required in the form. Defaults to the contract's required flag for the same field. */
  required?: boolean;
  /** Has a placeholder under `resources.<name>.placeholders.<source>`. */
  placeholder?: boolean;
}

export interface FieldProps {
  source: string;
  /** The i18n key of the label. */
  label: string;
  required: boolean;
  /** The resource file's name, for i18n keys. */
  name: string;
}

/** The form inputs a declaration can ask for (SPEC §2.30 widgets). */
export type Field =
  | (FieldBase & { kind: 'text' | 'textarea' | 'number' | 'email' | 'date' })
  /** A fixed list: labels are `resources.<name>.choices.<value>`. */
  | (FieldBase & { kind: 'select'; choices: readonly (string | number)[] })
  /** Country, state and city pickers writing country/state/city and their details (SPEC §2.30). */
  | { kind: 'location'; source: 'country'; required?: boolean; levels?: readonly ('country' | 'state' | 'city')[] }
  /** A record of another console resource (route segment), stored by id. */
  | (FieldBase & { kind: 'reference'; reference: string })
  /**
   * An existing value or 'Create New' and type one (SPEC §2.30): options from another resource's
   * names, or from an array in the record carrying some of its keys (a subcategory's serial).
   * `from` starts the value from another record path (category_name ← name).
   */
  | (FieldBase & {
      kind: 'pickOrType';
      options: { reference: string } | { path: string; carry?: readonly string[] };
      from?: string;
    })
  /** A currency code from the exchange rates, or only these codes. */
  | (FieldBase & { kind: 'currency'; only?: readonly string[] })
  | (FieldBase & { kind: 'custom'; component: Loader<FieldProps>; wide?: boolean });

/** A radio group of the Control tab (SPEC §2.30 option forms). */
export type ControlOption =
  /** is_active: the first choice means on; sent as 1/0 or a boolean per the contract (SPEC §4.3). */
  | { kind: 'active'; source: 'is_active'; choices: readonly [string, string] }
  /** Any other field: the values themselves are sent (product state, an order's status code). */
  | { kind: 'choice'; source: string; choices: readonly (string | number)[] };

export interface PanelProps {
  /** The record being edited; undefined while creating. */
  record?: RaRecord;
  /** The console resource (route segment). */
  resource: string;
  name: string;
}

/** An extra tab of the editing panel (Assign Roles). */
export interface PanelTab {
  id: string;
  /** i18n key of the tab's label. */
  label: string;
  component: Loader<PanelProps>;
  /** Disabled until a record is selected. */
  needsRecord?: boolean;
}

export interface RowClickHelpers {
  openModal(view: string, payload: unknown): void;
}

/**
 * A filter of the list (react-admin's `<List filters>`), shown above the table: it narrows the rows to
 * those whose field holds the chosen value. It goes to the server as the list call's `filter` (an
 * extension the reference server honours; a legacy server's page is also filtered on the client).
 * Labelled `resources.<name>.filters.<source>`; its values `resources.<name>.choices.<value>`.
 */
export type ListFilter =
  /** One of fixed values, or all of them (the empty choice). */
  { kind: 'select'; source: string; choices: readonly (string | number)[] };

/** The management screen of SPEC §2.9, rendered by src/screens for every list resource. */
export interface ListScreen {
  kind: 'list';
  columns: readonly Column[];
  /** The form tab, labelled 'Add / Edit' or 'Editor' (SPEC §2.9). Absent: no form tab. */
  form?: {
    tab: 'add_edit' | 'editor';
    fields: readonly Field[];
    /** Update-only screens: the message (i18n key) of saving with no record selected (SPEC §8). */
    forbidden?: string;
    /**
     * A save that cannot be undone asks first: when the form's `source` holds `value`, Save opens a
     * confirmation (`title` and `content` are i18n keys; `content` may name the record's fields, and its label as %{name}).
     */
    confirm?: { source: string; value: unknown; title: string; content: string };
  };
  /** The Control tab. Absent: no Control tab. */
  control?: {
    options: readonly ControlOption[];
    submit?: boolean;
    remove?: boolean;
    /** The tab's label (i18n key) on the seller variant, when it differs ('Review' on My Orders). */
    sellerLabel?: string;
  };
  /** Extra tabs of the editing panel. */
  tabs?: readonly PanelTab[];
  /** Besides opening the record in the panel, what a row click does (open the order dialog). */
  onRowClick?: (record: RaRecord, helpers: RowClickHelpers) => void;
  /** A permanent filter of the list (Brands: product_id 0). */
  filter?: Readonly<Record<string, unknown>>;
  /** Filters the user chooses above the table (products by status). */
  filters?: readonly ListFilter[];
  /**
   * The compact list shown instead of the table on phones (react-admin's SimpleList): the columns
   * (by source) on each row's first line, second line and right-hand side. Absent: derived from the
   * columns (the first shown column other than the id, the next two, and the status dot).
   */
  compact?: { primary: readonly string[]; secondary?: readonly string[]; tertiary?: readonly string[] };
  /** Buttons to related screens beside Explore (Categories ↔ Subcategories): route path and i18n label key. */
  links?: readonly { path: string; label: string }[];
}

/** A screen that is not a list (live chat): one component replaces the management screen. */
export interface PageScreen {
  kind: 'page';
  component: Loader;
}

/** What the console's screens, routes and sidebar read of a resource file. */
export interface ScreenResource extends ResourceApi {
  screen?: ListScreen | PageScreen;
  /**
   * The record path that names a record (react-admin's recordRepresentation): the editing panel's
   * title, the delete confirmation, references. Absent: '#<id>'.
   */
  recordRepresentation?: string;
  /**
   * Per-resource data hooks (ra-core's withLifecycleCallbacks): uploads before a save, payload
   * shaping, reading answers. Applied to the admin screen and its seller variant.
   */
  lifecycle?: Omit<ResourceCallbacks, 'resource'>;
  /**
   * Extra console pages of this resource, outside the management screen (`/catalogue`): any signed-in
   * user may open one, unless it names the sidebar token it needs (`access`).
   */
  routes?: readonly { path: string; component: Loader; access?: string }[];
  /** Public pages of this resource: no sign-in, outside the console's layout (the visitor's `/chat`). */
  publicRoutes?: readonly { path: string; component: Loader }[];
  /** Wraps the icon of the resource's sidebar entry (a live count); rendered only for those who see the entry. */
  menuBadge?: Loader<{ children: ReactNode }>;
}
