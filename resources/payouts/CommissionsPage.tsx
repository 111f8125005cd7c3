export default function CommissionsPage() {
  return null;
}
