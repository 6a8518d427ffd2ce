/** Mount point for the right sidebar (webapp-b): people with presence and status, profile cards. */
export function RightSidebar() {
  return <div class="right-sidebar" />;
}
