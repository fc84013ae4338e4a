// The turnscript extension: starts `turnscript lsp` and hands it the .turn files.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("turnscript").get("server.path") || "turnscript";
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "turnscript",
    "turnscript",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "turnscript" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
