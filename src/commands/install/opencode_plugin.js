// loopgate-installed: loopgate install --agent rewrites this file
// loopgate's hooks inside opencode. opencode has no command hooks: its plugins are JavaScript, so this plugin is
// the adapter's wire. It hands each event to `loopgate hook --agent opencode EVENT` as JSON in Claude Code's
// field names and carries out the answer:
// - `session.idle` (the agent stopped): loopgate's stop hook; a block is sent back as the next prompt;
// - `tool.execute.before`: loopgate's guard; a refusal throws (opencode shows the model the error), a
//   rewritten shell command replaces the tool's `command`;
// - `chat.message` (a user's prompt): loopgate's prompt hook, which carries out `/pua-loop` and `/cancel-loop`.
//   The prompts this plugin sends itself are told apart by their text and are not the user's.
// Every failure lets opencode go on (the seal still judges at the next promise).
import { spawn } from "node:child_process"

const LOOPGATE = "@LOOPGATE@"
const STOP_TIMEOUT_MS = 3700 * 1000
const OTHER_TIMEOUT_MS = 60 * 1000

function run(event, input, timeout) {
  return new Promise((resolve) => {
    let stdout = ""
    let child
    try {
      child = spawn(LOOPGATE, ["hook", "--agent", "opencode", event], { stdio: ["pipe", "pipe", "inherit"] })
    } catch {
      return resolve({})
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout)
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.on("error", () => resolve({}))
    child.on("close", () => {
      clearTimeout(timer)
      try {
        resolve(stdout.trim() ? JSON.parse(stdout) : {})
      } catch {
        resolve({})
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(input))
  })
}

function text(parts) {
  return (parts || [])
    .filter((part) => part && part.type === "text" && !part.synthetic && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n")
}

async function lastAssistantText(client, id) {
  try {
    const answer = await client.session.messages({ path: { id } })
    const messages = (answer && answer.data) || answer || []
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]
      if (message && message.info && message.info.role === "assistant") {
        const said = text(message.parts)
        if (said.trim()) return said
      }
    }
  } catch {}
  return ""
}

export const LoopgatePlugin = async ({ client, directory }) => {
  // Per session: the follow-up this plugin sent last (its next `chat.message` is not the user's), and whether the
  // turn going on is one (`stop_hook_active`).
  const sent = new Map()
  const continued = new Set()
  return {
    "chat.message": async (input, output) => {
      const id = input.sessionID
      const prompt = text(output && output.parts)
      if (sent.get(id) === prompt) {
        sent.delete(id)
        return
      }
      continued.delete(id)
      await run("user-prompt-submit", { hook_event_name: "chat.message", session_id: id, cwd: directory, prompt }, OTHER_TIMEOUT_MS)
    },
    "tool.execute.before": async (input, output) => {
      const answer = await run(
        "pre-tool-use",
        { hook_event_name: "tool.execute.before", session_id: input.sessionID, cwd: directory, tool_name: input.tool, tool_input: output.args },
        OTHER_TIMEOUT_MS,
      )
      const specific = answer.hookSpecificOutput || {}
      if (specific.permissionDecision === "deny") {
        throw new Error(specific.permissionDecisionReason || "refused by loopgate")
      }
      const rewritten = specific.updatedInput
      if (rewritten && typeof rewritten.command === "string" && output.args) {
        output.args.command = rewritten.command
      }
    },
    event: async ({ event }) => {
      if (!event || event.type !== "session.idle") return
      const id = event.properties && event.properties.sessionID
      if (!id) return
      const input = {
        hook_event_name: "session.idle",
        session_id: id,
        cwd: directory,
        stop_hook_active: continued.has(id),
        last_assistant_message: await lastAssistantText(client, id),
      }
      const answer = await run("stop", input, STOP_TIMEOUT_MS)
      if (answer.decision !== "block" || typeof answer.reason !== "string") {
        continued.delete(id)
        return
      }
      continued.add(id)
      sent.set(id, answer.reason)
      const body = { path: { id }, body: { parts: [{ type: "text", text: answer.reason }] } }
      const send = client.session.promptAsync || client.session.prompt
      Promise.resolve(send.call(client.session, body)).catch(() => {})
    },
  }
}
