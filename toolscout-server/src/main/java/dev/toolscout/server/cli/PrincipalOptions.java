package dev.toolscout.server.cli;

import dev.toolscout.model.Principal;
import picocli.CommandLine.Option;

/** Who is asking. */
final class PrincipalOptions {
    @Option(names = "--user", paramLabel = "U", description = "User id.")
    String user;

    @Option(names = "--group", paramLabel = "G", description = "Group id.")
    String group;

    @Option(names = "--space", paramLabel = "S", description = "Space id (inherits its parent spaces' rules).")
    String space;

    Principal principal() {
        return new Principal(user, group, space);
    }
}
