/** Subcategory (SPEC §2.11): only the subcategories of the category chosen above it. */
import { useEffect, useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { SelectInput, required, useGetOne } from 'react-admin';
import type { FieldProps } from '../../src/screens/types';

interface Subcategory {
  id: number;
  name: string;
}

export default function SubcategoryInput({ source, label, required: isRequired }: FieldProps) {
  const categoryId = useWatch({ name: 'category_id' }) as unknown;
  const current = useWatch({ name: source }) as unknown;
  const { setValue } = useFormContext();
  const { data: category, isPending } = useGetOne('category', { id: categoryId as number }, { enabled: !!categoryId });
  const choices = useMemo<Subcategory[]>(
    () => (categoryId && Array.isArray(category?.subcategories) ? category.subcategories : []),
    [categoryId, category],
  );
  useEffect(() => {
    // A subcategory of another category is dropped when the category changes.
    if (category && current != null && current !== '' && !choices.some((c) => String(c.id) === String(current))) {
      setValue(source, null, { shouldDirty: true });
    }
  }, [category, choices, current, setValue, source]);
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      isPending={!!categoryId && isPending}
      // Read-only, not disabled, until a category is chosen: a disabled input is never validated,
      // so a missing subcategory would show no 'Required'.
      readOnly={!categoryId}
      validate={isRequired ? required() : undefined}
      fullWidth
    />
  );
}
