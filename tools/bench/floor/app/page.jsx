export default function Page() {
  return <h1>Hello, world!</h1>;
}
