/** Code for the Markdown benchmark: fenced blocks for the everyday corpus, and 64 KB source files. */

/** Short fenced blocks as people paste them, one per highlighted language. */
export const codeMessages = [
  "```json\n{\"id\": 42, \"name\": \"general\", \"tags\": [\"a\", \"b\"], \"muted\": false}\n```",
  "```bash\nnpm ci && npm run build\nexport NODE_ENV=production\n```",
  "```c\nint add(int a, int b) {\n    return a + b;\n}\n```",
  "```cpp\nstd::vector<int> v{1, 2, 3};\nfor (auto& x : v) std::cout << x << std::endl;\n```",
  "```java\npublic static void main(String[] args) {\n    System.out.println(\"hi\");\n}\n```",
  "```go\nfunc main() {\n\tfmt.Println(\"hello\", len(os.Args))\n}\n```",
  "```rust\nfn main() {\n    let v: Vec<i32> = vec![1, 2];\n    println!(\"{:?}\", v);\n}\n```",
  "```sql\nSELECT id, name FROM users WHERE active = TRUE ORDER BY name LIMIT 10;\n```",
  "```html\n<div class=\"card\"><a href=\"/x\">link</a></div>\n```",
  "```css\n.card > a:hover { color: #06c; margin: 0 4px; }\n```",
  "```yaml\nservices:\n  web:\n    image: nginx:1.25\n    ports: [\"80:80\"]\n```",
  "```ruby\ndef greet(name)\n  puts \"Hello, #{name}!\"\nend\n```",
  "```diff\n--- a/app.ts\n+++ b/app.ts\n@@ -1 +1 @@\n-const x = 1;\n+const x = 2;\n```",
  "```xml\n<dependency><groupId>org.example</groupId><version>1.0</version></dependency>\n```",
];

const pythonUnit = (i: number) => `
class Handler${i}(BaseHandler):
    """Serve the resource number ${i}."""

    timeout = ${i % 30} * 1.5

    def get(self, request, key=None):
        # Look the key up, falling back to the default.
        value = self.cache.get(key or "default-${i}")
        if value is None and not request.is_ajax():
            raise NotFound(f"no value for {key!r}")
        return {"key": key, "value": value, "count": len(self.items) + ${i}}
`;

const cUnit = (i: number) => `
/* Sum the first n values of the buffer ${i}. */
static long sum_${i}(const int *values, size_t n)
{
    long total = 0;
    for (size_t k = 0; k < n; k++) {
        if (values[k] < 0 && k % ${(i % 7) + 2} == 0)
            continue;  // skip negatives on every other slot
        total += values[k] * 0x${(i * 37 % 4096).toString(16)};
    }
    printf("sum %d: %ld\\n", ${i}, total);
    return total;
}
`;

/** A source file of about `size` characters, made of numbered units. */
function file(header: string, unit: (i: number) => string, size: number): string {
  let out = header;
  for (let i = 0; out.length < size; i++) out += unit(i);
  return out.slice(0, out.lastIndexOf("\n", size));
}

/** 64 KB of Python and of C, each as a fenced block. */
export const bigCode: [string, string][] = [
  ["Python", "```python\n" + file("import os\nfrom typing import Any\n", pythonUnit, 65_536) + "\n```"],
  ["C", "```c\n" + file("#include <stdio.h>\n#include <stdlib.h>\n", cUnit, 65_536) + "\n```"],
];
