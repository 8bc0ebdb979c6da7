package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.git.GitIndexer;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repository serve --git-repo indexes, searched over HTTP under the access policy, on the real model. */
class HttpGitSearchTest {
    @TempDir
    Path tmp;

    private static void commit(Git git, String message, String path, String content) throws Exception {
        Path f = git.getRepository().getWorkTree().toPath().resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
        git.add().addFilepattern(path).call();
        git.commit()
                .setMessage(message)
                .setAuthor("Ada", "ada@example.org")
                .setSign(false)
                .call();
    }

    @Test
    void the_indexed_repository_is_searchable_by_those_the_policy_lets_use_git_search_and_404_for_the_rest()
            throws Exception {
        Path repo = tmp.resolve("repo");
        try (Git git = Git.init()
                        .setDirectory(repo.toFile())
                        .setInitialBranch("main")
                        .call();
                ApiServer server = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT)) {
            commit(git, "Start the project", "README.md", "A small service that greets visitors.\n");
            commit(
                    git,
                    "Add the monthly invoice schedule",
                    "docs/billing.md",
                    "Invoices are emailed to customers on the first day of every month by the billing job.\n");
            server.awaitReady();
            ApiClient reader = server.client.as(ApiServer.READER);
            ApiClient admin = server.client.as(ApiServer.ADMIN);
            String body = "{\"query\": \"when do customers get their invoices\", \"limit\": 3}";

            // no repository indexed: the route answers as for nothing there
            HttpResponse<String> none = reader.post("/v1/git/search", body);
            assertThat(none.statusCode()).isEqualTo(404);

            try (GitIndexer g = GitIndexer.open(
                    repo,
                    server.scout.maintenance().store(),
                    server.scout.rankingParts().model(),
                    GitIndexer.Limits.DEFAULT)) {
                server.api.gitRepository(g);
                HttpResponse<String> found = reader.post("/v1/git/search", body);
                assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
                JsonNode r = new ObjectMapper().readTree(found.body());
                assertThat(r.path("results").get(0).path("path").asText()).isEqualTo("docs/billing.md");
                assertThat(r.path("head").asText()).isEqualTo(g.indexedHead());
                assertThat(reader.post("/v1/git/search", "{\"query\": \"x\", \"lmit\": 3}")
                                .statusCode())
                        .isEqualTo(400);

                // the policy denies the kids the source git: the reader (a kid) gets the no-repository 404, byte
                // for byte, before its body is even read; the staff still search
                HttpResponse<String> set = admin.put(
                        "/v1/policy?allow_unmatched=true",
                        "{\"rules\": [{\"effect\": \"deny\", \"source\": \"git\", \"group\": \"kids\"}]}");
                assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
                HttpResponse<String> denied = reader.post("/v1/git/search", body);
                assertThat(denied.statusCode()).isEqualTo(404);
                assertThat(denied.body()).isEqualTo(none.body());
                assertThat(reader.post("/v1/git/search", "{\"query\": \"x\", \"lmit\": 3}")
                                .body())
                        .isEqualTo(none.body());
                HttpResponse<String> staff = server.client.as(ApiServer.USER).post("/v1/git/search", body);
                assertThat(staff.statusCode()).as(staff.body()).isEqualTo(200);
            }
        }
    }
}
