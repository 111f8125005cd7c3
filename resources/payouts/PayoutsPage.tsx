export default function PayoutsPage() {
  return null;
}
