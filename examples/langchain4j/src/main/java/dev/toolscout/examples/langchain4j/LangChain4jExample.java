package dev.toolscout.examples.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.langchain4j.ToolScoutToolProvider;
import dev.toolscout.langchain4j.ToolScoutToolSearchStrategy;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.model.SourceKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A LangChain4j AI Service whose tools come from ToolScout: an upstream MCP server's tools in ToolScout's catalog, the
 * model first given ToolScout's selection and a search tool, and the tools it finds run by ToolScout's MCP executor.
 * The model is a scripted OpenAI-compatible endpoint on loopback ({@link ScriptedOpenAi}), reached through
 * LangChain4j's own OpenAI client.
 *
 * <p>Exits with 1 unless: the model searched, ToolScout found a tool the first request did not carry, the model called
 * it, the MCP server ran it (its memory file holds what the model stored), and the tool the policy denies bob was
 * never found nor sent for him.
 *
 * <pre>
 * java -cp ... dev.toolscout.examples.langchain4j.LangChain4jExample DATA_DIR PATH/TO/server-memory/dist/index.js
 * </pre>
 */
public final class LangChain4jExample {
  private static final String FOUND = "kg__create_entities";
  private static final String DENIED = "kg__delete_entities";
  private static final String SEARCH = ToolScoutToolSearchStrategy.TOOL_NAME;

  private LangChain4jExample() {}

  interface Assistant {
    String chat(@MemoryId String user, @UserMessage String message);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: LangChain4jExample DATA_DIR PATH/TO/server-memory/dist/index.js");
      System.exit(2);
    }
    Path dataDir = Path.of(args[0]);
    Path memoryServer = Path.of(args[1]);
    Path memoryFile = dataDir.resolve("kg.jsonl");
    Files.createDirectories(dataDir);
    List<String> failures = new ArrayList<>();

    try (ScriptedOpenAi openAi = script();
        McpRuntime mcp = McpRuntime.open(ToolScout.builder().dataDir(dataDir.resolve("data")))) {
      // the upstream MCP server: its tools join ToolScout's catalog as kg__*
      mcp.start(List.of(ServerConfig.stdio("kg", "node", List.of(memoryServer.toString()))
          .withEnv(Map.of("MEMORY_FILE_PATH", memoryFile.toString()))), Duration.ofSeconds(60));
      // bob may not delete from the knowledge graph (the same as a policy file's
      // {"rules": [{"effect": "deny", "tool": "kg__delete_entities", "user": "bob"}]})
      mcp.scout().setPolicy(new AccessPolicy(AccessRule.Effect.ALLOW, Map.of(), List.of(new AccessRule(
          AccessRule.Effect.DENY, AccessRule.Target.TOOL, DENIED, AccessRule.Subject.USER, "bob"))));
      ToolRunner runner = ToolRunner.builder(mcp.scout()).executor(SourceKind.MCP, mcp.executor()).build();

      Assistant assistant = AiServices.builder(Assistant.class)
          .chatModel(OpenAiChatModel.builder().baseUrl(openAi.baseUrl()).apiKey("not-needed")
              .modelName("gpt-4o-mini").build())
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
          // the selected tools always visible, every other tool the user may see found by the search
          .toolProvider(ToolScoutToolProvider.builder(runner).searchable(true).k(1).build())
          .toolSearchStrategy(ToolScoutToolSearchStrategy.builder(mcp.scout()).build())
          .build();

      String alice = assistant.chat("alice", "Remember that Ada Lovelace wrote the first program.");
      System.out.println("alice <- " + alice);
      String bob = assistant.chat("bob", "Forget everything about Ada Lovelace.");
      System.out.println("bob   <- " + bob);

      failures.addAll(openAi.problems);
      if (openAi.requests.size() != 5) {
        failures.add("the model was asked " + openAi.requests.size() + " times, expected 5");
      }
      String stored = Files.exists(memoryFile) ? Files.readString(memoryFile) : "";
      if (!stored.contains("Ada Lovelace")) {
        failures.add("the MCP server did not store Ada Lovelace: " + memoryFile + " holds '" + stored + "'");
      }
      // alice may delete (the search offered her the tool); bob's requests, the last two, never name it
      for (JsonNode r : openAi.requests.subList(Math.min(3, openAi.requests.size()), openAi.requests.size())) {
        if (r.toString().contains(DENIED)) {
          failures.add("the tool denied to bob, " + DENIED + ", reached the model in his request: " + r);
        }
      }
    }
    if (!failures.isEmpty()) {
      failures.forEach(f -> System.err.println("LangChain4jExample: " + f));
      System.exit(1);
    }
    System.out.println("ok: the model searched, ToolScout found " + FOUND
        + " (not in the first request), the MCP server ran it; " + DENIED + " was never found for bob");
  }

  /** What the model does, and what each request must carry. */
  private static ScriptedOpenAi script() throws Exception {
    return new ScriptedOpenAi()
        // alice: the first request carries the search tool, not the tool the model will find
        .toolCall("call_1", SEARCH, "{\"query\": \"add new entities to the knowledge graph\"}", r -> {
          List<String> tools = ScriptedOpenAi.tools(r);
          if (!tools.contains(SEARCH)) {
            return "the first request does not carry " + SEARCH + ": " + tools;
          }
          if (tools.contains(FOUND)) {
            return "the first request already carries " + FOUND + ": nothing to find";
          }
          return ScriptedOpenAi.last(r).path("content").asText().contains("Ada") ? null
              : "the user's message is not the last one: " + ScriptedOpenAi.last(r);
        })
        // the search's answer names the found tool, which the request now carries
        .toolCall("call_2", FOUND, """
            {"entities": [{"name": "Ada Lovelace", "entityType": "person",
                           "observations": ["wrote the first program"]}]}""", r -> {
          JsonNode result = ScriptedOpenAi.last(r);
          if (!result.path("role").asText().equals("tool") || !result.path("tool_call_id").asText().equals("call_1")
              || !result.path("content").asText().contains(FOUND)) {
            return "the search's answer does not name " + FOUND + ": " + result;
          }
          return ScriptedOpenAi.tools(r).contains(FOUND) ? null
              : "the request after the search does not carry " + FOUND + ": " + ScriptedOpenAi.tools(r);
        })
        // the MCP server's answer comes back as the tool's result
        .text("I will remember that Ada Lovelace wrote the first program.", r -> {
          JsonNode result = ScriptedOpenAi.last(r);
          return result.path("tool_call_id").asText().equals("call_2")
              && result.path("content").asText().contains("Ada Lovelace") ? null
              : "the tool's result is not the MCP server's answer: " + result;
        })
        // bob may not delete: his search finds no deleting tool
        .toolCall("call_3", SEARCH, "{\"query\": \"delete entities from the knowledge graph\"}",
            r -> ScriptedOpenAi.tools(r).contains(SEARCH) ? null : "bob's first request has no " + SEARCH)
        .text("I cannot delete anything from the knowledge graph.", r -> {
          JsonNode result = ScriptedOpenAi.last(r);
          return result.path("tool_call_id").asText().equals("call_3") ? null
              : "the last message is not the answer to bob's search: " + result;
        });
  }
}
