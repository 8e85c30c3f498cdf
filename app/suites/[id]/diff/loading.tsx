// The suite's loading state, inside this page's own boundary: the labelling page beside it has none, so
// that its notFound() for an unknown item still answers 404 (a page that has started streaming cannot).
export { default } from "../(editor)/loading";
