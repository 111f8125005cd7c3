/**
 * The distance form's pickers (SPEC §2.25): a radio chooses Location A or Location B, and each pick
 * of the country, state and city pickers is written there as 'country,state,area'.
 */
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { FormControl, FormControlLabel, FormLabel, Paper, Radio, RadioGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { LocationInput } from '../../src/widgets/LocationInput';
import type { FieldProps } from '../../src/screens/types';
import { placeText } from './place';

const TARGETS = ['location_A', 'location_B'] as const;
type Target = (typeof TARGETS)[number];

export default function LocationFiller({ name }: FieldProps) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const [target, setTarget] = useState<Target>('location_A');
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <FormControl>
        <FormLabel id="distance-fill-target">{translate(`resources.${name}.inputs.fill`)}</FormLabel>
        <RadioGroup row aria-labelledby="distance-fill-target" value={target} onChange={(e) => setTarget(e.target.value as Target)}>
          {TARGETS.map((t) => (
            <FormControlLabel key={t} value={t} control={<Radio />} label={translate(`resources.${name}.inputs.${t}`)} />
          ))}
        </RadioGroup>
      </FormControl>
      <LocationInput
        onPick={(pick) => {
          const text = placeText(pick);
          if (text) setValue(target, text, { shouldDirty: true, shouldValidate: true });
        }}
      />
    </Paper>
  );
}
