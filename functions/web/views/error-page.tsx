import { Layout } from "./layout.js";

/** A failed request as a page: what went wrong, and the way back to the catalogue. */
export function ErrorPage({ title, detail }: { title: string; detail: string }) {
  return (
    <Layout title={`${title} · Agent Tools`}>
      <h1>{title}</h1>
      <p class="error">{detail}</p>
      <p>
        <a href="/">Search the catalogue</a>
      </p>
    </Layout>
  );
}
