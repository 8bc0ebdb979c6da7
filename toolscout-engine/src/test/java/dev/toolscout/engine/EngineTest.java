package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** The composed engine over the real store, index and embedding model, across restarts. */
@ResourceLock(LogCapture.LOGGERS)
class EngineTest {
    @TempDir
    Path dir;

    private static List<String> names(Selection s) {
        return s.selected().stream().map(Selection.SelectedTool::name).toList();
    }

    private static Selection meeting(Engine e) {
        return e.selector().select(Selector.Request.of("Schedule a meeting for tomorrow at 2pm", Principal.ANONYMOUS));
    }

    @Test
    void a_new_data_directory_holds_the_demo_catalog_and_selects_calendar_tools() throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.catalog().size()).isGreaterThanOrEqualTo(60);
            assertThat(names(meeting(e)))
                    .contains("calendar__create_event", "calendar__list_events", "tool_discovery__find");
        }
    }

    @Test
    void a_data_directory_in_use_is_refused_clearly_and_left_working() throws Exception {
        try (Engine running = Engine.open(Engine.Options.of(dir))) {
            assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir)))
                    .isInstanceOf(DataDirectoryInUseException.class)
                    .hasMessage("data directory " + dir + " is in use by an engine in this process (pid "
                            + ProcessHandle.current().pid()
                            + "); give this one its own --data-dir, or stop the other one");
            assertThat(running.discovery().find(Principal.ANONYMOUS, "send an email", 3))
                    .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Ok.class);
            assertThat(running.catalog().size()).isGreaterThanOrEqualTo(60);
        }
    }

    @Test
    void the_lock_covers_the_store_so_an_engine_with_another_model_is_refused_too() throws Exception {
        try (Engine running = Engine.open(Engine.Options.of(dir))) {
            long version = running.catalog().version();
            // another model has its own index directory: only the data-directory lock stands between it and the store
            assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir).withModel("bge-small-en-v1.5-q")))
                    .isInstanceOf(DataDirectoryInUseException.class)
                    .hasMessageContaining("data directory " + dir + " is in use");
            assertThat(running.catalog().version()).isEqualTo(version);
            assertThat(dir.resolve("index").resolve("bge-small-en-v1.5-q")).doesNotExist();
        }
        // released on close
        try (Engine again = Engine.open(Engine.Options.of(dir))) {
            assertThat(again.catalog().size()).isGreaterThanOrEqualTo(60);
        }
    }

    @Test
    void reading_a_current_data_directory_never_loads_the_embedding_model() throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.embeddedCount()).isPositive(); // the demo catalog, embedded once
        }
        // what list, describe and remove do, on the engine they open (mcp add/remove: McpPersistenceTest)
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.discovery().listAll(Principal.ANONYMOUS, null))
                    .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Ok.class);
            assertThat(e.discovery().describe(Principal.ANONYMOUS, "calendar__create_event"))
                    .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Ok.class);
            e.remove(List.of("echo__echo"));
            assertThat(e.modelLoaded()).isFalse();

            e.discovery().find(Principal.ANONYMOUS, "send an email", 3); // a query is embedded
            assertThat(e.modelLoaded()).isTrue();
        }
    }

    @Test
    void a_closed_engine_refuses_to_embed_instead_of_entering_the_model() throws Exception {
        Engine e = Engine.open(Engine.Options.of(dir).withModelPreload());
        dev.toolscout.embedding.EmbeddingModel model = e.model();
        e.close();
        assertThatThrownBy(() -> model.embedQuery("send an email"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
    }

    @Test
    void a_damaged_index_is_rebuilt_from_the_store_without_embedding() throws Exception {
        List<String> first;
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            first = names(meeting(e));
        }
        // garbage in the middle of every index file (segments_N, compound files, vectors): checksums no longer match
        try (Stream<Path> files = Files.walk(dir.resolve("index"))) {
            for (Path p : files.filter(Files::isRegularFile)
                    .filter(p -> !p.endsWith("write.lock"))
                    .toList()) {
                byte[] b = Files.readAllBytes(p);
                for (int i = b.length / 2; i < Math.min(b.length, b.length / 2 + 64); i++) {
                    b[i] = (byte) ~b[i];
                }
                Files.write(p, b);
            }
        }
        try (dev.toolscout.testing.LogCapture log = dev.toolscout.testing.LogCapture.of(Engine.class);
                Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.index().size()).isEqualTo(e.catalog().size());
            assertThat(e.embeddedCount()).isZero();
            assertThat(e.modelLoaded()).isFalse(); // every vector came from the store
            assertThat(names(meeting(e))).isEqualTo(first);
            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .startsWith("the search index at " + dir.resolve("index"))
                    .endsWith("; rebuilding it from the store");
        }
    }

    @Test
    void a_segment_file_with_a_bad_checksum_is_found_at_open_and_rebuilt_without_embedding() throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.catalog().size()).isPositive();
        }
        // one byte in the middle of the largest file (the segment's data): the index opens, and only the full
        // checksum check at open sees the damage
        Path largest;
        try (Stream<Path> files = Files.walk(dir.resolve("index"))) {
            largest = files.filter(Files::isRegularFile)
                    .max(Comparator.comparingLong(p -> p.toFile().length()))
                    .orElseThrow();
        }
        byte[] b = Files.readAllBytes(largest);
        b[b.length / 2] = (byte) ~b[b.length / 2];
        Files.write(largest, b);
        try (dev.toolscout.testing.LogCapture log = dev.toolscout.testing.LogCapture.of(Engine.class);
                Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.index().size()).isEqualTo(e.catalog().size());
            assertThat(e.embeddedCount()).isZero();
            assertThat(names(meeting(e))).contains("calendar__create_event");
            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .startsWith("the search index at " + dir.resolve("index"))
                    .contains("checkIntegrity failed")
                    .endsWith("; rebuilding it from the store");
        }
    }

    @Test
    void catalog_files_add_to_a_data_directory_and_only_replace_drops_its_other_tools() throws Exception {
        int demo;
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            demo = e.catalog().size();
        }
        Path file = dir.resolve("weather.json");
        Files.writeString(file, "{\"tools\":[{\"name\":\"weather__forecast\",\"description\":\"Weather forecast.\"}]}");
        try (Engine e = Engine.open(Engine.Options.of(dir).withCatalogs(List.of(file)))) {
            assertThat(e.catalog().size()).isEqualTo(demo + 1);
            assertThat(e.toolsBesidesCatalogFiles()).isEqualTo(demo);
            e.replaceCatalogTools(dev.toolscout.engine.files.CatalogFiles.load(file));
            assertThat(e.catalog().size()).isEqualTo(1);
        }
    }

    @Test
    void remove_takes_out_named_tools_or_a_source_all_or_nothing() throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            int before = e.catalog().size();
            assertThatThrownBy(() -> e.remove(List.of("echo__echo", "nope__x")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no tool named 'nope__x' in the catalog of " + dir + "; nothing was removed");
            assertThat(e.catalog().size()).isEqualTo(before);
            assertThat(e.remove(List.of("echo__echo")).removed()).isEqualTo(1);
            int gmail = (int) e.catalog().snapshot().entries().stream()
                    .filter(t -> t.spec().name().source().equals("gmail"))
                    .count();
            assertThat(e.removeSource("gmail").removed()).isEqualTo(gmail).isPositive();
            assertThat(e.catalog().snapshot().hasSource("gmail")).isFalse();
            assertThatThrownBy(() -> e.removeSource("gmail")).hasMessageContaining("no tool of source 'gmail'");
        }
    }

    @Test
    void a_restart_embeds_nothing_and_selects_the_same() throws Exception {
        List<String> first;
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.embeddedCount()).isPositive();
            first = names(meeting(e));
        }
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(names(meeting(e))).isEqualTo(first);
            assertThat(e.embeddedCount()).isZero();
        }
    }

    @Test
    void a_lost_index_is_rebuilt_from_the_store_without_embedding() throws Exception {
        List<String> first;
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            first = names(meeting(e));
        }
        try (Stream<Path> files = Files.walk(dir.resolve("index"))) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.index().size()).isEqualTo(e.catalog().size());
            assertThat(e.embeddedCount()).isZero();
            assertThat(names(meeting(e))).isEqualTo(first);
        }
    }

    @Test
    void an_updated_tool_is_embedded_again_and_the_others_are_not() throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            ToolSpec t = e.catalog().get("echo__echo").orElseThrow().spec();
            long before = e.embeddedCount();
            e.index(List.of(
                    t.toBuilder().build(),
                    ToolSpec.builder("echo__shout", "Repeats a message loudly.").build()));
            assertThat(e.embeddedCount() - before).isEqualTo(1);
            e.index(List.of(ToolSpec.builder("echo__echo", "Returns the message, reversed.")
                    .build()));
            assertThat(e.embeddedCount() - before).isEqualTo(2);
            assertThat(e.discovery().describe(Principal.ANONYMOUS, "echo__shout"))
                    .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Ok.class);
        }
    }

    @Test
    void a_bad_policy_file_is_refused_before_anything_changes() throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.catalog().size()).isPositive();
        }
        Path bad = dir.resolve("policy.json");
        Files.writeString(bad, "{\"rules\":[{\"effect\":\"maybe\",\"tool\":\"gmail__send_email\"}]}");
        assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir).withPolicy(bad)))
                .hasMessageContaining("policy.json")
                .hasMessageContaining("rules[0].effect");
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.access().policy().rules()).isEmpty();
            assertThat(e.catalog().size()).isPositive();
        }
    }

    @Test
    void a_policy_file_is_applied_for_the_engine_only_and_its_unmatched_rules_are_logged() throws Exception {
        Path typo = dir.resolve("typo.json");
        Files.writeString(
                typo,
                "{\"rules\":[{\"effect\":\"deny\",\"source\":\"gmial\"},"
                        + "{\"effect\":\"deny\",\"source\":\"calendar\"}]}");
        try (Engine e = Engine.open(Engine.Options.of(dir).withPolicy(typo))) {
            assertThat(e.access().policy().rules()).hasSize(2);
            assertThat(e.discovery().describe(Principal.ANONYMOUS, "calendar__create_event"))
                    .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Error.class);
        }
        // the warning comes from opening a ToolScout (which knows the indexes registered with it), unless deferred
        assertThat(logged(ToolScout.builder().dataDir(dir).preloadModel(false).policyFile(typo)))
                .containsExactly(typo + ": rules[0].source: 'gmial' matches no known source (did you mean 'gmail'?)");
        assertThat(logged(ToolScout.builder()
                        .dataDir(dir)
                        .preloadModel(false)
                        .policyFile(typo)
                        .warnUnmatchedPolicy(false)))
                .isEmpty();
        try (Engine e = Engine.open(Engine.Options.of(dir))) {
            assertThat(e.storedPolicy()).isEmpty();
            assertThat(e.access().policy().rules()).isEmpty();
        }
    }

    /** What opening (and closing) {@code b} logs. */
    private static List<String> logged(ToolScout.Builder b) {
        try (dev.toolscout.testing.LogCapture log = dev.toolscout.testing.LogCapture.of(LocalToolScout.class)) {
            try (ToolScout scout = b.build()) {
                assertThat(scout.policy().rules()).hasSize(2);
            }
            return log.warnings();
        }
    }

    @Test
    void a_selection_and_its_route_take_one_model_call_and_route_as_the_router_alone_does() throws Exception {
        Principal ann = new Principal("ann", "eng", "team-a");
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            LazyEmbeddingModel model = (LazyEmbeddingModel) scout.engine().model();
            scout.memory()
                    .store(
                            ann,
                            dev.toolscout.memory.MemoryScope.USER,
                            dev.toolscout.memory.MemoryType.FACT,
                            "My dog is called Rex and he is a beagle.",
                            null);
            scout.select(new dev.toolscout.engine.SelectRequest("warm up", ann, null, null, null));
            List<Boolean> wordsMatch = new java.util.ArrayList<>();
            for (String message : List.of(
                    "What is my dog's name?",
                    "Schedule a meeting for tomorrow at 2pm",
                    "Find the invoice from March. Then email it to the accountant and add a reminder for Friday",
                    // words that match a tool under a weak cosine, and words that match nothing: the route's wordsMatch
                    // is
                    // taken from the selection's own lexical search, and must be what the router's search finds
                    "Send an email to Bob about the budget",
                    "zqxv blorfing vantrel")) {
                long before = model.calls();
                dev.toolscout.engine.SelectResult s =
                        scout.select(new dev.toolscout.engine.SelectRequest(message, ann, null, null, null));
                // the selection's call (message, clauses and the router's document vector) is the only one
                assertThat(model.calls() - before).as(message).isEqualTo(1);
                // and the route is the one the router finds embedding the message itself
                assertThat(s.route()).as(message).isEqualTo(scout.route(ann, message));
                wordsMatch.add(s.route().wordsMatch());
            }
            // both answers of the words search were compared
            assertThat(wordsMatch).containsExactly(true, true, true, true, false);
        }
    }

    @Test
    void the_count_of_all_visible_tokens_follows_the_catalog_and_the_principal() throws Exception {
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            dev.toolscout.engine.SelectRequest email =
                    dev.toolscout.engine.SelectRequest.of("send an email to the team");
            long before = scout.select(email).tokens().all();
            assertThat(scout.select(email).tokens().all()).isEqualTo(before);
            dev.toolscout.model.ToolSpec probe = dev.toolscout.model.ToolSpec.builder(
                            "probe__ping", "Ping a host to check it answers")
                    .build();
            scout.upsert(List.of(probe));

            assertThat(scout.select(email).tokens().all())
                    .isEqualTo(before + scout.engine().tokens().definitionTokens(probe));
            scout.remove(List.of("probe__ping"));
            assertThat(scout.select(email).tokens().all()).isEqualTo(before);
        }
    }
}
