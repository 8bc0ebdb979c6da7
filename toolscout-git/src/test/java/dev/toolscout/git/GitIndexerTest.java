package dev.toolscout.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.state.InMemoryStateStore;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On a real repository made with JGit and the real default embedding model. */
class GitIndexerTest {
    private static EmbeddingModel model;

    @TempDir
    Path dir;

    @BeforeAll
    static void loadModel() {
        model = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID);
    }

    @AfterAll
    static void closeModel() throws Exception {
        if (model instanceof AutoCloseable c) {
            c.close();
        }
    }

    private static RevCommit commit(Git git, String message, String path, String content) throws Exception {
        Path f = git.getRepository().getWorkTree().toPath().resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
        git.add().addFilepattern(path).call();
        return git.commit()
                .setMessage(message)
                .setAuthor("Ada", "ada@example.org")
                .setSign(false)
                .call();
    }

    @Test
    void a_commit_is_searchable_by_meaning_and_a_deleted_file_leaves_the_search() throws Exception {
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            commit(
                    git,
                    "Start the project",
                    "README.md",
                    "A small service that greets visitors in several languages.\n");
            InMemoryStateStore store = new InMemoryStateStore();
            try (GitIndexer g = GitIndexer.open(dir, store, model, GitIndexer.Limits.DEFAULT)) {
                assertThat(g.search("greeting visitors", 3).get(0).path()).isEqualTo("README.md");

                RevCommit billing = commit(
                        git,
                        "Add the monthly invoice schedule",
                        "docs/billing.md",
                        "Invoices are emailed to customers on the first day of every month by the billing job.\n");
                assertThat(g.refresh()).isEqualTo(1);
                List<GitIndexer.Hit> hits = g.search("when do customers get their invoices", 3);
                assertThat(hits).extracting(GitIndexer.Hit::path).contains("docs/billing.md");
                assertThat(g.search("which commit changed the invoice schedule", 5))
                        .anySatisfy(h -> {
                            assertThat(h.kind()).isEqualTo("commit");
                            assertThat(h.commit()).isEqualTo(billing.name());
                            assertThat(h.snippet()).contains("docs/billing.md");
                        });

                git.rm().addFilepattern("docs/billing.md").call();
                git.commit()
                        .setMessage("Drop the billing notes")
                        .setAuthor("Ada", "ada@example.org")
                        .setSign(false)
                        .call();
                g.refresh();
                assertThat(g.search("invoices emailed to customers", 10))
                        .noneSatisfy(h -> assertThat(h.path()).isEqualTo("docs/billing.md"));
                assertThat(g.status().lag()).isZero();
            }
            // a restart rebuilds from the repository with the stored vectors: nothing is embedded again
            try (GitIndexer again = GitIndexer.open(dir, store, model, GitIndexer.Limits.DEFAULT)) {
                assertThat(again.embeddedCount()).isZero();
                assertThat(again.search("greeting visitors", 1).get(0).path()).isEqualTo("README.md");
            }
        }
    }

    @Test
    void a_started_indexer_follows_new_commits_on_its_own_thread() throws Exception {
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            commit(git, "Start", "notes.txt", "Nothing here yet.\n");
            try (GitIndexer g = GitIndexer.open(dir, new InMemoryStateStore(), model, GitIndexer.Limits.DEFAULT)
                    .start()) {
                RevCommit c = commit(
                        git,
                        "Describe the backup rotation",
                        "ops/backups.md",
                        "Database backups are kept for thirty days and rotated nightly at 02:00 UTC.\n");
                g.committed(); // a git.committed event; without it the next poll finds the commit too
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!c.name().equals(g.indexedHead()) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(g.indexedHead()).isEqualTo(c.name());
                assertThat(g.search("how long are backups kept", 2))
                        .extracting(GitIndexer.Hit::path)
                        .contains("ops/backups.md");
            }
        }
    }

    @Test
    void files_over_the_size_cap_and_binary_files_are_not_indexed() throws Exception {
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            commit(git, "Add a large file", "big.txt", "word ".repeat(2_000));
            Path bin = dir.resolve("image.bin");
            Files.write(bin, new byte[] {0, 1, 2, 0, 3});
            git.add().addFilepattern("image.bin").call();
            git.commit()
                    .setMessage("Add a binary")
                    .setAuthor("Ada", "ada@example.org")
                    .setSign(false)
                    .call();
            GitIndexer.Limits small = new GitIndexer.Limits(10, 100, 1_000, 500, java.time.Duration.ofSeconds(1));
            try (GitIndexer g = GitIndexer.open(dir, new InMemoryStateStore(), model, small)) {
                assertThat(g.search("large file", 10))
                        .extracting(GitIndexer.Hit::kind)
                        .containsOnly("commit");
                assertThat(g.size()).isEqualTo(2);
            }
        }
    }

    @Test
    void more_new_commits_than_are_kept_still_bring_every_file_up_to_date() throws Exception {
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            commit(git, "Start", "a.txt", "The alpha service greets visitors.\n");
            GitIndexer.Limits two = new GitIndexer.Limits(2, 100, 10_000, 2_000, java.time.Duration.ofSeconds(1));
            try (GitIndexer g = GitIndexer.open(dir, new InMemoryStateStore(), model, two)) {
                // three new commits, two kept: the oldest of them is the only one that changes a.txt
                commit(git, "Rewrite a", "a.txt", "Invoices are emailed to customers on the first day of the month.\n");
                commit(git, "Add c", "c.txt", "Notes about the build.\n");
                commit(git, "Add d", "d.txt", "Notes about the deploy.\n");
                g.refresh();

                assertThat(g.search("when are invoices emailed to customers", 10))
                        .filteredOn(h -> "a.txt".equals(h.path()) && h.kind().equals("file"))
                        .singleElement()
                        .satisfies(h -> assertThat(h.snippet()).contains("Invoices are emailed"));
                assertThat(g.search("notes", 20))
                        .filteredOn(h -> h.kind().equals("commit"))
                        .hasSize(2);
            }
        }
    }

    @Test
    void files_that_new_commits_add_count_toward_the_file_cap() throws Exception {
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            commit(git, "Add one", "one.txt", "First file.\n");
            GitIndexer.Limits twoFiles = new GitIndexer.Limits(10, 2, 10_000, 2_000, java.time.Duration.ofSeconds(1));
            try (GitIndexer g = GitIndexer.open(dir, new InMemoryStateStore(), model, twoFiles);
                    LogCapture log = LogCapture.of(GitIndexer.class)) {
                commit(git, "Add two", "two.txt", "Second file.\n");
                commit(git, "Add three", "three.txt", "Third file.\n");
                g.refresh();

                assertThat(log.warnings())
                        .contains("git indexer for " + dir
                                + ": more than 2 files; the files commits add past it are not indexed");

                assertThat(g.search("file", 20))
                        .filteredOn(h -> h.kind().equals("file"))
                        .hasSize(2);
                assertThat(g.size()).isEqualTo(2 + 3); // two files, three commits
            }
        }
    }

    @Test
    void a_directory_that_is_not_a_repository_is_refused_naming_it() {
        assertThatThrownBy(() -> GitIndexer.open(dir, new InMemoryStateStore(), model, GitIndexer.Limits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(dir.toString())
                .hasMessageContaining("not a git repository");
        assertThatThrownBy(() -> new GitIndexer.Limits(0, 1, 1, 16, java.time.Duration.ofSeconds(1)))
                .hasMessageContaining("maxCommits must be between 1 and 100000, got: 0");
    }
}
