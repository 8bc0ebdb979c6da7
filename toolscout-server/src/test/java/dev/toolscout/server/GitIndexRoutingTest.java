package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessPolicyJson;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolCallResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.git.GitIndexer;
import dev.toolscout.model.Principal;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.routing.RouteJson;
import dev.toolscout.selection.Origin;
import dev.toolscout.server.cli.ToolScoutCli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The git index registered with the engine (what {@code serve --git-repo} does): the router fans out to it, {@code
 * git__search} is offered and runs as one of the engine's own tools, and {@code policy check} knows source {@code
 * git}; all of it under the access policy. A real repository made with the git CLI, the real model, the demo catalog.
 */
class GitIndexRoutingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Principal KID = new Principal("tim", "kids", null);
    private static final Principal STAFF = new Principal("ann", "staff", null);
    private static final String ASKED = "Which commit changed the monthly invoice schedule of the billing job?";

    @TempDir
    Path tmp;

    private Path repository() throws Exception {
        return GitRepositories.billing(tmp);
    }

    private static AccessPolicy kidsDenied() throws Exception {
        return AccessPolicyJson.fromJson(
                JSON.readTree("{\"rules\": [{\"effect\": \"deny\", \"source\": \"git\", \"group\": \"kids\"}]}"),
                "policy");
    }

    @Test
    void the_router_fans_out_to_the_git_index_and_offers_git_search_only_to_whom_the_policy_lets_use_it()
            throws Exception {
        Path repo = repository();
        try (ToolScout scout = ToolScout.builder().dataDir(tmp.resolve("data")).build()) {
            scout.setPolicy(kidsDenied());
            // a rule on source git matches nothing while no repository is followed
            assertThat(scout.checkPolicy(kidsDenied(), null, null, null))
                    .extracting(u -> u.message())
                    .containsExactly("rules[0].source: 'git' matches no known source");
            String kidBefore = RouteJson.toJson(scout.route(KID, ASKED)).toString();
            SelectResult kidSelectBefore = scout.select(SelectRequest.of(ASKED).withPrincipal(KID));
            assertThat(scout.isMetaTool(GitIndexer.TOOL)).isFalse();

            try (GitIndexer git = GitIndexer.open(
                    repo, scout.maintenance().store(), scout.rankingParts().model(), GitIndexer.Limits.DEFAULT)) {
                scout.register(git);
                assertThatThrownBy(() -> scout.register(git))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("an index searched by git__search is registered already");

                // the staff: the route's evidence lists the repository's entries, and its nearest match is there
                RouteDecision staff = scout.route(STAFF, ASKED);
                assertThat(staff.evidence())
                        .filteredOn(e -> e.kind() == RouteDecision.Kind.INDEX)
                        .isNotEmpty()
                        .allSatisfy(e -> assertThat(e.via()).isEqualTo(GitIndexer.TOOL));
                RouteDecision.Evidence best = staff.evidence().stream()
                        .filter(e -> e.kind() == RouteDecision.Kind.INDEX)
                        .findFirst()
                        .orElseThrow();
                assertThat(best.name()).as(staff.toString()).contains("Move the monthly invoice schedule");
                assertThat(staff.nearestIndex()).as(staff.toString()).contains(GitIndexer.TOOL);
                assertThat(staff.reason()).as(staff.toString()).contains("in the index git__search searches");
                // 0.68 with MiniLM, over the 0.65 of skill_hint: a hint to search the repository, never a tool run
                assertThat(staff.route())
                        .as(staff.toString())
                        .isIn(dev.toolscout.routing.Route.SKILL_HINT, dev.toolscout.routing.Route.TOOL_FILTER);
                if (staff.route() == dev.toolscout.routing.Route.SKILL_HINT) {
                    assertThat(staff.target()).isEqualTo(GitIndexer.TOOL);
                }
                JsonNode json = RouteJson.toJson(staff);
                assertThat(json.path("evidence").toString()).contains("\"kind\":\"index\"", "\"tool\":\"git__search\"");

                // the selection offers git__search, counted among the tools the principal may see
                SelectResult sel = scout.select(SelectRequest.of(ASKED).withPrincipal(STAFF));
                assertThat(sel.selected())
                        .filteredOn(t -> t.name().equals(GitIndexer.TOOL))
                        .singleElement()
                        .satisfies(t -> assertThat(t.origin()).isEqualTo(Origin.OFFERED));
                // a message about something else entirely does not get it
                SelectResult other = scout.select(
                        SelectRequest.of("Send an email to Bob about lunch").withPrincipal(STAFF));
                assertThat(other.selected()).noneMatch(t -> t.name().equals(GitIndexer.TOOL));

                // the model's call runs through the gate, as the engine's own tool
                assertThat(scout.isMetaTool(GitIndexer.TOOL)).isTrue();
                ToolCallResult ran = scout.callMetaTool(
                        STAFF, null, GitIndexer.TOOL, JSON.readTree("{\"query\": \"invoice schedule\", \"limit\": 2}"));
                assertThat(ran.error()).isNull();
                assertThat(ran.output().path("results")).hasSize(2);
                assertThat(ran.output().path("results").toString()).contains("docs/billing.md");
                ToolCallResult bad = scout.callMetaTool(
                        STAFF, null, GitIndexer.TOOL, JSON.readTree("{\"query\": \"x\", \"limit\": 0}"));
                assertThat(bad.error()).contains("limit");

                // a kid, whom the policy denies source git: the same route and selection as with no repository, and
                // the tool reads as missing
                assertThat(RouteJson.toJson(scout.route(KID, ASKED)).toString()).isEqualTo(kidBefore);
                SelectResult kidSelect = scout.select(SelectRequest.of(ASKED).withPrincipal(KID));
                assertThat(kidSelect.selected())
                        .extracting(SelectResult.SelectedTool::name)
                        .isEqualTo(kidSelectBefore.selected().stream()
                                .map(SelectResult.SelectedTool::name)
                                .toList());
                assertThat(kidSelect.visibleCount()).isEqualTo(kidSelectBefore.visibleCount());
                ToolCallResult denied = scout.callMetaTool(
                        KID, null, GitIndexer.TOOL, JSON.readTree("{\"query\": \"invoice schedule\"}"));
                assertThat(denied.output()).isNull();
                assertThat(denied.error()).doesNotContain("policy", "denied", "repository");
                assertThat(scout.ownTool(KID, null, GitIndexer.TOOL)).isEmpty();

                // and policy check knows source git now
                assertThat(scout.checkPolicy(kidsDenied(), null, null, null)).isEmpty();
            }
        }
    }

    @Test
    void policy_check_knows_source_git_when_given_the_repository_serve_follows() throws Exception {
        Path repo = repository();
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, "{\"rules\": [{\"effect\": \"deny\", \"source\": \"git\", \"group\": \"kids\"}]}");
        String data = "--data-dir=" + tmp.resolve("data");
        java.io.StringWriter err = new java.io.StringWriter();
        int without = ToolScoutCli.run(
                new String[] {"policy", "check", policy.toString(), data},
                new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(err, true));
        assertThat(without).as(err.toString()).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("rules[0].source: 'git' matches no known source");

        err = new java.io.StringWriter();
        int with = ToolScoutCli.run(
                new String[] {"policy", "check", policy.toString(), data, "--git-repo", repo.toString()},
                new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(err, true));
        assertThat(with).as(err.toString()).isZero();
        assertThat(err.toString()).doesNotContain("matches no known");

        err = new java.io.StringWriter();
        int notARepo = ToolScoutCli.run(
                new String[] {"policy", "check", policy.toString(), data, "--git-repo", tmp.toString()},
                new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(err, true));
        assertThat(notARepo).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("--git-repo " + tmp + ": not a git repository");
    }
}
