// Drives loopgate's opencode plugin (as `loopgate install --agent opencode` wrote it) the way opencode calls a
// plugin, per `@opencode-ai/plugin`: `chat.message` for a prompt, `tool.execute.before` for a tool call, `event`
// with `session.idle` when the agent stopped; the client is a stand-in answering `session.messages` with the
// scripted last message and recording `session.promptAsync`. Prints one JSON line per step for tests/agents.rs.
// Usage: node opencode_driver.mjs PLUGIN PROJECT_DIR STEPS_JSON
import { pathToFileURL } from "node:url"

const [plugin, directory, stepsJson] = process.argv.slice(2)
const { LoopgatePlugin } = await import(pathToFileURL(plugin).href)
let last = ""
const sent = []
const client = {
  session: {
    messages: async () => ({
      data: [
        { info: { role: "user" }, parts: [{ type: "text", text: "go" }] },
        { info: { role: "assistant" }, parts: [{ type: "text", text: last }] },
      ],
    }),
    promptAsync: async (body) => {
      sent.push(body)
      return {}
    },
  },
}
const hooks = await LoopgatePlugin({ client, directory, worktree: directory, project: {}, $: null })
for (const step of JSON.parse(stepsJson)) {
  const before = sent.length
  const result = { step: step.kind }
  if (step.kind === "prompt") {
    const parts = [{ type: "text", text: step.text }]
    await hooks["chat.message"]({ sessionID: step.session }, { message: {}, parts })
  } else if (step.kind === "tool") {
    const output = { args: step.args }
    try {
      await hooks["tool.execute.before"]({ tool: step.tool, sessionID: step.session, callID: "c" }, output)
      result.args = output.args
    } catch (error) {
      result.refused = String(error.message)
    }
  } else if (step.kind === "idle") {
    last = step.message
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: step.session } } })
    // The prompt is sent without waiting for its answer (as opencode's event handlers must not block).
    await new Promise((resolve) => setTimeout(resolve, 0))
    const prompt = sent.slice(before)[0]
    if (prompt) {
      result.followUp = prompt.body.parts[0].text
      // opencode runs `chat.message` for the follow-up too: the plugin knows it as its own.
      await hooks["chat.message"]({ sessionID: step.session }, { message: {}, parts: prompt.body.parts })
    }
  }
  console.log(JSON.stringify(result))
}
