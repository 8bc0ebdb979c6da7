package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryJson;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryType;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolscout memory store|search|recall|list|forget}: long-term memory (docs/MEMORY.md). */
@Command(
        name = "memory",
        mixinStandardHelpOptions = true,
        description = "Long-term memory: facts, preferences, events and notes, scoped to a user, group or space "
                + "(docs/MEMORY.md).",
        subcommands = {
            MemoryCommand.Store.class,
            MemoryCommand.Search.class,
            MemoryCommand.Recall.class,
            MemoryCommand.ListMemories.class,
            MemoryCommand.Forget.class
        })
final class MemoryCommand {
    private static ObjectNode hits(List<MemoryIndex.Hit> hits) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("score", "cosine");
        ArrayNode list = out.putArray("memories");
        for (MemoryIndex.Hit h : hits) {
            list.add(MemoryJson.toJson(h.memory()).put("cosine", Math.round(h.cosine() * 10_000) / 10_000.0));
        }
        return out;
    }

    @Command(name = "store", mixinStandardHelpOptions = true, description = "Remember TEXT (memory__store).")
    static final class Store implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TEXT", description = "What to remember; - reads it from standard input.")
        String text;

        @Option(
                names = "--type",
                paramLabel = "TYPE",
                defaultValue = "fact",
                description = "fact, preference, event or note (default: ${DEFAULT-VALUE}).")
        String type;

        @Option(
                names = "--scope",
                paramLabel = "SCOPE",
                defaultValue = "user",
                description = "user, group or space: who may read it (default: ${DEFAULT-VALUE}).")
        String scope;

        @Option(names = "--conversation", paramLabel = "ID", description = "The conversation it belongs to.")
        String conversation;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            MemoryType t = MemoryType.of("--type", type);
            MemoryScope s = MemoryScope.of("--scope", scope);
            String content = MessageArgument.resolve(text, System.in, "TEXT");
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                Memory m = scout.memory().store(who.principal(), s, t, content, conversation);
                return Results.print(
                        spec, (ObjectNode) Json.MAPPER.createObjectNode().set("stored", MemoryJson.toJson(m)));
            }
        }
    }

    @Command(
            name = "search",
            mixinStandardHelpOptions = true,
            description = "The memories nearest in meaning to QUERY, with their cosine (memory__search).")
    static final class Search implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "QUERY", description = "What to look for.")
        String query;

        @Option(names = "--type", paramLabel = "TYPE", description = "Only this type.")
        String type;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "5",
                description = "Most results, 1-50 " + "(default: ${DEFAULT-VALUE}).")
        int limit;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            MemoryType t = type == null ? null : MemoryType.of("--type", type);
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options().withModelPreload(), spec.commandLine().getErr(), null)) {
                return Results.print(spec, hits(scout.memory().search(who.principal(), query, t, limit)));
            }
        }
    }

    @Command(name = "recall", mixinStandardHelpOptions = true, description = "One memory by its id (memory__recall).")
    static final class Recall implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "The memory's id.")
        String id;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options(), spec.commandLine().getErr(), null)) {
                Memory m = scout.memory()
                        .get(who.principal(), id)
                        .orElseThrow(() -> new IllegalArgumentException("Memory not found: " + id));
                return Results.print(
                        spec, (ObjectNode) Json.MAPPER.createObjectNode().set("memory", MemoryJson.toJson(m)));
            }
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "The memories the principal may read, most recently changed first.")
    static final class ListMemories implements Callable<Integer> {
        @Option(names = "--type", paramLabel = "TYPE", description = "Only this type.")
        String type;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "20",
                description = "Most results, 1-50 " + "(default: ${DEFAULT-VALUE}).")
        int limit;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            MemoryType t = type == null ? null : MemoryType.of("--type", type);
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options(), spec.commandLine().getErr(), null)) {
                ObjectNode out = Json.MAPPER.createObjectNode();
                ArrayNode list = out.putArray("memories");
                scout.memory().recent(who.principal(), t, limit).forEach(m -> list.add(MemoryJson.toJson(m)));
                return Results.print(spec, out);
            }
        }
    }

    @Command(
            name = "forget",
            mixinStandardHelpOptions = true,
            description = "Forget memories for good: their text and vectors are deleted (memory__forget).")
    static final class Forget implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "ID", description = "Memory ids.")
        List<String> ids;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                List<String> missing = ids.stream()
                        .filter(i -> scout.memory().get(who.principal(), i).isEmpty())
                        .toList();
                if (!missing.isEmpty()) {
                    throw new IllegalArgumentException(
                            "Memory not found: " + String.join(", ", missing) + "; nothing was forgotten");
                }
                ObjectNode out = Json.MAPPER.createObjectNode();
                ArrayNode list = out.putArray("forgotten");
                for (String i : ids) {
                    scout.memory().forget(who.principal(), i);
                    list.add(i.strip());
                }
                return Results.print(spec, out);
            }
        }
    }
}
