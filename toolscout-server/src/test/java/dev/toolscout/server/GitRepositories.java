package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Real git repositories for the git index's tests, made with the git CLI. */
public final class GitRepositories {
    private GitRepositories() {}

    /**
     * A repository in {@code dir}/repo with two commits: "Start the project" (README.md) and one that moves the monthly
     * invoice schedule of the billing job (docs/billing.md).
     */
    public static Path billing(Path dir) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        commit(repo, "Start the project", "README.md", "A small service that greets visitors.\n");
        commit(
                repo,
                "Move the monthly invoice schedule of the billing job to the first day of the month",
                "docs/billing.md",
                "The billing job emails invoices to customers on the first day of every month.\n");
        return repo;
    }

    /** Commits {@code content} at {@code path}. */
    public static void commit(Path repo, String message, String path, String content) throws Exception {
        Path f = repo.resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
        git(repo, "add", path);
        git(repo, "commit", "-q", "-m", message);
    }

    /** Runs git in {@code repo} as a fixed author, unsigned; fails the test when it fails. */
    public static void git(Path repo, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "git",
                "-C",
                repo.toString(),
                "-c",
                "user.name=Ada",
                "-c",
                "user.email=ada@example.org",
                "-c",
                "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", cmd) + ": " + out).isZero();
    }
}
