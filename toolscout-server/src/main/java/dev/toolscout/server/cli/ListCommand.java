package dev.toolscout.server.cli;

import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolScout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toolscout list}: tool_discovery__list_all from the command line. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List the tools you may see, optionally of one category (tool_discovery__list_all).")
final class ListCommand implements Callable<Integer> {
    @Option(names = "--category", paramLabel = "C", description = "Only this category.")
    String category;

    @ParentCommand
    ToolScoutCli cli;

    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    RemoteOptions remote;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (remote.given()) {
            RemoteApi api = remote.api(cli.env, engine, who, null);
            String only = category == null
                    ? ""
                    : "&category=" + java.net.URLEncoder.encode(category, java.nio.charset.StandardCharsets.UTF_8);
            return print(
                    offset -> page(api.get("/v1/tools?offset=" + offset + "&limit=" + ToolPage.MAX_LIMIT + only)),
                    () -> skills(api.get("/v1/skills")));
        }
        try (ToolScout scout = EngineOptions.openForReading(
                engine.options(), spec.commandLine().getErr(), null)) {
            return print(
                    offset -> scout.list(who.principal(), category, offset, ToolPage.MAX_LIMIT),
                    () -> scout.skills(who.principal()));
        }
    }

    /**
     * Every page: the command lists all the principal may see, as tool_discovery__list_all does, skills included
     * (for no category, or the category skills).
     */
    private int print(
            java.util.function.IntFunction<ToolPage> pages,
            java.util.function.Supplier<List<dev.toolscout.skills.Skill>> skills) {
        ToolPage first = pages.apply(0);
        List<ToolPage.ToolSummary> all = new ArrayList<>(first.tools());
        ToolPage page = first;
        while (all.size() < page.total() && !page.tools().isEmpty()) {
            page = pages.apply(all.size());
            all.addAll(page.tools());
        }
        return Results.print(
                spec,
                Results.withSkills(
                        Results.list(new ToolPage(all, all.size(), 0, first.categories()), category),
                        category,
                        skills.get()));
    }

    /** The skills of {@code GET /v1/skills} (docs/HTTP_API.md), as the server lets the caller read them. */
    private static List<dev.toolscout.skills.Skill> skills(com.fasterxml.jackson.databind.JsonNode json) {
        List<dev.toolscout.skills.Skill> out = new ArrayList<>();
        json.path("skills")
                .forEach(n -> out.add(dev.toolscout.skills.SkillJson.fromJson(
                        n, "GET /v1/skills", dev.toolscout.skills.Skill.Source.API)));
        return out;
    }

    /** A page of {@code GET /v1/tools} (docs/HTTP_API.md). */
    private static ToolPage page(com.fasterxml.jackson.databind.JsonNode json) {
        List<ToolPage.ToolSummary> tools = new ArrayList<>();
        json.path("tools")
                .forEach(t -> tools.add(new ToolPage.ToolSummary(
                        t.path("name").asText(),
                        t.path("description").asText(),
                        t.path("category").asText())));
        java.util.Map<String, Integer> categories = new java.util.TreeMap<>();
        json.path("categories")
                .properties()
                .forEach(e -> categories.put(e.getKey(), e.getValue().asInt()));
        return new ToolPage(
                tools, json.path("total").asInt(), json.path("offset").asInt(), categories);
    }
}
