/**
 * JSON already serialised, spliced into the response as is: a payload field (a large answer kept
 * in memory), or a whole payload object (a small answer asked for on every request).
 */
export class JsonText {
  private whole: string | undefined;

  constructor(readonly text: string) {}

  /**
   * The success envelope around this payload, with `extra` fields (JSON text, leading comma)
   * after it. The plain one is built once: a kept answer is sent again and again.
   */
  envelope(extra = ""): string {
    if (extra !== "") return `{"result":"success","msg":""${this.fields()}${extra}}\n`;
    this.whole ??= `{"result":"success","msg":""${this.fields()}}\n`;
    return this.whole;
  }

  private fields(): string {
    return this.text === "{}" ? "" : `,${this.text.slice(1, -1)}`;
  }
}
