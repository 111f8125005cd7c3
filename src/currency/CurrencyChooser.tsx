/**
 * The display currency chooser of the top bar (beyond the spec): any currency of the exchange rates;
 * the choice is remembered, and 'Detected' goes back to the visitor location's currency. The bar
 * shows only the code; phones (under 600 px) leave it out so the cart and the user menu fit: not drawn
 * there at all (a select, its menu and their styles, drawn as the rates arrive, for nothing).
 */
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { usePhone } from '../layout/usePhone';
import { currencyOf } from '../../contract/location';
import { useChosenCurrency, useDisplayCurrency, useRates, useVisitorLocation } from '.';

const AUTO = '__auto__';

export function CurrencyChooser() {
  const translate = useTranslate();
  const rates = useRates();
  const [display] = useDisplayCurrency();
  const [chosen, setChosen] = useChosenCurrency();
  const detected = currencyOf(useVisitorLocation()) ?? 'USD';
  const phone = usePhone();
  if (rates.length === 0 || phone) return null;
  return (
    <TextField
      select
      fullWidth={false}
      size="small"
      variant="standard"
      value={chosen ? display : AUTO}
      onChange={(e) => setChosen(e.target.value === AUTO ? '' : e.target.value)}
      slotProps={{ htmlInput: { 'aria-label': translate('currency.chooser') }, select: { MenuProps: { disableScrollLock: true }, renderValue: () => display } }}
      style={{ width: 80, flex: '0 0 auto' }}
      sx={{ mx: 1, minWidth: 0, '& .MuiInputBase-root': { color: 'inherit' }, '& .MuiSvgIcon-root': { color: 'inherit' }, '& .MuiInput-underline:before': { borderColor: 'rgba(255,255,255,0.5)' } }}
    >
      <MenuItem value={AUTO}>{translate('currency.detected', { code: chosen ? detected : display })}</MenuItem>
      {rates.map((r) => (
        <MenuItem key={r.code} value={String(r.code).toUpperCase()}>
          {`${String(r.code).toUpperCase()} ${r.currency_symbol ?? ''}`.trim()}
        </MenuItem>
      ))}
    </TextField>
  );
}

export default CurrencyChooser;
