package dev.toolscout.server.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --server URL}: select, find, list and describe ask a running {@code toolscout serve} over its HTTP API
 * instead of opening a data directory. The API key comes from {@code $TOOLSCOUT_API_KEY} (never the command line,
 * where other users of the machine could read it), and the principal is the key's.
 */
final class RemoteOptions {
    /** The environment variable holding the API key. */
    static final String API_KEY_ENV = "TOOLSCOUT_API_KEY";

    @Option(
            names = "--server",
            paramLabel = "URL",
            description = "Ask the `toolscout serve` at URL (e.g. "
                    + "http://127.0.0.1:8765) over its HTTP API instead of opening a data directory; the API key is read from "
                    + "$TOOLSCOUT_API_KEY, and the principal is the key's.")
    String server;

    boolean given() {
        return server != null;
    }

    /**
     * The server's API, after checking that no option the server would not hear was given: a data directory,
     * catalog, policy, model, servers file or principal of the command line would be silently ignored.
     *
     * @param engine may be null for a command without them; likewise {@code who} and {@code servers}
     */
    RemoteApi api(Map<String, String> env, EngineOptions engine, PrincipalOptions who, ServersOptions servers) {
        List<String> ignored = new ArrayList<>();
        if (engine != null) {
            add(ignored, "--data-dir", engine.dataDir);
            add(ignored, "--catalog", engine.catalogs);
            add(ignored, "--policy", engine.policy);
            add(ignored, "--model", engine.model);
        }
        if (who != null) {
            add(ignored, "--user", who.user);
            add(ignored, "--group", who.group);
            add(ignored, "--space", who.space);
        }
        if (servers != null) {
            add(ignored, "--servers", servers.servers);
            add(ignored, "--servers-wait", servers.waitSeconds);
        }
        if (!ignored.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", ignored) + (ignored.size() == 1 ? " does" : " do")
                    + " not go with --server: the server uses its own data directory, catalog, policy, model and servers, "
                    + "and the principal of the API key in $" + API_KEY_ENV);
        }
        return RemoteApi.of(server, env.get(API_KEY_ENV));
    }

    private static void add(List<String> into, String option, Object value) {
        if (value != null) {
            into.add(option);
        }
    }
}
