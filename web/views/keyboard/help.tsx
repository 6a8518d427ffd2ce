/** The `?` overlay (a lazily loaded chunk): every row of the shortcut table, by category. */
import { openDialog } from "../overlay.js";
import { categories, keyLabel, rows, type Row } from "./table.js";

export function openHelp(title: string): void {
  openDialog(title, () => <Help />, true);
}

function Help() {
  return (
    <div class="shortcut-help" tabIndex={0} aria-label="Shortcut list">
      {categories.map((category) => {
        const inCategory = (rows as readonly Row[]).filter((r) => r.category === category);
        if (inCategory.length === 0) return null;
        return (
          <section key={category}>
            <h3>{category}</h3>
            <table>
              <tbody>
                {inCategory.map((r) => (
                  <tr key={r.id} data-shortcut={r.id} class={r.absent ? "absent" : undefined}>
                    <th scope="row">{r.label}</th>
                    <td>
                      {r.absent ? (
                        <span class="why">Not in Rookery: {r.absent}</span>
                      ) : (
                        r.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 && " or "}
                            <kbd>{keyLabel(k)}</kbd>
                          </span>
                        ))
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        );
      })}
    </div>
  );
}
