/**
 * Mount point for compose (webapp-b): recipient, topic, text, typeahead, preview, drafts, typing,
 * uploads, local echo and retry. It reads route.value to pre-fill the recipient of the open narrow.
 */
export function Compose() {
  return <div class="compose-slot" />;
}
