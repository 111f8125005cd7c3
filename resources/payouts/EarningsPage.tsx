export default function EarningsPage() {
  return null;
}
