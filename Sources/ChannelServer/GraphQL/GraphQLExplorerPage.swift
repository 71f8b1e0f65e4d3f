// The explorer (`/graphql/explorer`): one self-contained HTML page, no outside scripts, styles or
// fonts (nothing is fetched from a CDN). It reads the channel token and an optional query from
// its URL (`?channelToken=…&query=…&run=1`), lists the schema's types from introspection, and
// runs the query box's text with POST against the endpoint, showing the answer.

/// The explorer page.
enum GraphQLExplorerPage {
    /// The page, for GET and HEAD.
    static func response(_ request: ServerRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPResponse(status: 405, headers: [("Allow", "GET, HEAD")])
        }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                (
                    "Content-Security-Policy",
                    "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"
                ),
            ], body: request.method == "HEAD" ? .empty : .bytes(Array(html.utf8)))
    }

    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>oceq GraphQL explorer</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0;display:grid;grid-template-columns:1fr 1fr 16em;height:100vh}
        textarea,pre{font-family:ui-monospace,monospace;font-size:13px;margin:0}
        section{display:flex;flex-direction:column;padding:.5em;min-height:0}
        textarea{flex:1;resize:none}pre{flex:1;overflow:auto;background:#f6f6f6;padding:.5em;white-space:pre-wrap}
        #schema{overflow:auto;font-size:13px}#schema li{cursor:pointer}
        header{display:flex;gap:.5em;align-items:center;margin-bottom:.5em}
        </style></head><body>
        <section><header><strong>Query</strong><button id="run" type="button">Run</button>
        <label>channelToken <input id="token" size="20"></label></header>
        <textarea id="query" spellcheck="false">{ getItems(limit: 5) { totalResults items { id type name } } }</textarea>
        <label>Variables (JSON)</label><textarea id="variables" spellcheck="false" style="flex:0 0 5em"></textarea></section>
        <section><header><strong>Result</strong><span id="status"></span></header><pre id="result"></pre></section>
        <section><header><strong>Schema</strong></header><ul id="schema"></ul><pre id="type" style="flex:0 0 40%"></pre></section>
        <script>
        "use strict";
        const params = new URLSearchParams(location.search);
        const endpoint = "/content/published/api/v1.1/graphql";
        const $ = (id) => document.getElementById(id);
        if (params.get("channelToken")) $("token").value = params.get("channelToken");
        if (params.get("query")) $("query").value = params.get("query");
        async function post(query, variables) {
          const token = $("token").value.trim();
          const url = endpoint + (token ? "?channelToken=" + encodeURIComponent(token) : "");
          const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({query, variables})});
          return [response.status, await response.text()];
        }
        async function run() {
          $("status").textContent = "running…";
          let variables = null;
          try { variables = $("variables").value.trim() ? JSON.parse($("variables").value) : null; }
          catch (e) { $("status").textContent = "variables: " + e.message; return; }
          try {
            const [status, text] = await post($("query").value, variables);
            let shown = text;
            try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) {}
            $("result").textContent = shown;
            $("status").textContent = "HTTP " + status;
            document.body.dataset.done = "1";
          } catch (e) { $("status").textContent = e.message; }
        }
        function typeRef(t) { return t.kind === "NON_NULL" ? typeRef(t.ofType) + "!" : t.kind === "LIST" ? "[" + typeRef(t.ofType) + "]" : t.name; }
        async function schema() {
          const q = "{ __schema { types { name kind description fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } inputFields { name type { kind name ofType { kind name ofType { kind name } } } } enumValues { name } } } }";
          const [, text] = await post(q, null);
          const types = (JSON.parse(text).data || {__schema: {types: []}}).__schema.types.filter((t) => !t.name.startsWith("__"));
          for (const t of types) {
            const li = document.createElement("li");
            li.textContent = t.name + " (" + t.kind.toLowerCase() + ")";
            li.onclick = () => {
              const members = (t.fields || t.inputFields || []).map((f) => "  " + f.name + ": " + typeRef(f.type));
              const values = (t.enumValues || []).map((v) => "  " + v.name);
              $("type").textContent = t.name + (t.description ? "\\n" + t.description : "") + "\\n" + members.concat(values).join("\\n");
            };
            $("schema").appendChild(li);
          }
        }
        $("run").onclick = run;
        schema().finally(() => { if (params.get("run") === "1") run(); });
        </script></body></html>
        """
}
