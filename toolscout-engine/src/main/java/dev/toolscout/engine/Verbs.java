package dev.toolscout.engine;

import dev.toolscout.model.Principal;
import dev.toolscout.verbs.NovelVerb;
import dev.toolscout.verbs.Resolution;
import dev.toolscout.verbs.VerbCandidate;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbResolver;
import java.util.Collection;
import java.util.List;

/**
 * Action verbs (seed 002): manifests registered in the catalog as tools named {@code verbs__<VERB>} (kind {@code
 * verb}), so they are stored, indexed, searched and access-controlled like any tool, and appear in selections too.
 * An access rule on source {@code verbs} covers every verb. docs/VERBS.md.
 *
 * <p>Thread-safe, like the {@link ToolScout} it belongs to; calls after its close throw {@link
 * IllegalStateException}.
 */
public interface Verbs {
    /**
     * Adds or replaces verbs by name. Durable on return (committed to the store) and indexed: the next discovery or
     * selection finds them.
     *
     * @throws IllegalArgumentException for two manifests of one verb; nothing is changed
     * @throws IllegalStateException when opened {@link ToolScout.Builder#readOnly read-only}
     */
    CatalogChange register(List<VerbManifest> manifests);

    /**
     * Removes verbs by name ({@code SEARCH_WEB}), all or none.
     *
     * @throws NoSuchToolException naming every verb that is not registered; nothing is removed
     * @throws IllegalStateException when opened {@link ToolScout.Builder#readOnly read-only}
     */
    CatalogChange remove(Collection<String> verbs);

    /**
     * The verbs {@code principal} may see, by name.
     *
     * @param principal {@code null} for the anonymous one
     */
    List<VerbManifest> list(Principal principal);

    /**
     * The verbs and tools {@code principal} may see that best match {@code description}, best first, each with its
     * confidence (a cosine similarity; see {@link VerbCandidate}).
     *
     * @param principal {@code null} for the anonymous one
     * @param limit 1-{@value VerbResolver#MAX_LIMIT}
     * @throws IllegalArgumentException for a blank or too long description, or a limit out of range
     */
    List<VerbCandidate> discover(Principal principal, String description, int limit);

    /**
     * Whether an existing verb or tool can stand in for {@code verb}: {@link VerbResolver#resolve}.
     *
     * @param principal {@code null} for the anonymous one
     */
    Resolution resolve(Principal principal, NovelVerb verb);

    /** The resolver behind {@link #discover} and {@link #resolve}: its threshold, and resolution with exclusions. */
    VerbResolver resolver();
}
