package dev.toolscout.approval;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.Role;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The approval queue: a call to a tool that needs approval ({@code ai_access: propose}) is held as a pending
 * request in the {@link ApprovalStore}; someone entitled to approve decides it out of band (the local operator
 * through {@code toolscout approvals}, or another caller with the admin role); the requester's next identical
 * call (same channel and run, same arguments to the byte, secrets included) then runs, once. Nobody approves
 * their own request; a requester may withdraw (deny) its own.
 *
 * <p>Requests expire: a pending one {@link #ttl} after it was made, an approved one not used {@link #ttl} after
 * it was approved (default {@link #DEFAULT_TTL}); a denial holds for as long. Expiry is applied when requests
 * are read, so no background thread is needed. Thread-safe: every change is a compare-and-set in the store,
 * so two racing retries of one approved call run it once.
 */
public final class Approvals {
    /** How long a request waits for a decision, and an approval for its use. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);
    /** The decider recorded when a request expires. */
    public static final String EXPIRY = "expiry";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApprovalStore store;
    private final Clock clock;
    private final Duration ttl;

    public Approvals(ApprovalStore store, Clock clock, Duration ttl) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("approval ttl must be positive, got: " + ttl);
        }
        this.ttl = ttl;
    }

    public Duration ttl() {
        return ttl;
    }

    /** Who decides: a caller id and its role. */
    public record Approver(String id, Role role) {
        public Approver {
            if (id == null || id.isBlank() || role == null) {
                throw new IllegalArgumentException("an approver needs an id and a role, got: '" + id + "', " + role);
            }
        }

        /** The local operator at the CLI: entitled to decide any request, recorded as {@code cli:<name>}. */
        public static Approver operator(String name) {
            return new Approver("cli:" + (name == null || name.isBlank() ? "operator" : name), Role.ADMIN);
        }
    }

    /** What to do with a call that needs approval. */
    public sealed interface Outcome {
        StoredApproval request();

        /** Approved and now marked used: run the call, this once. */
        record Run(StoredApproval request) implements Outcome {}

        /** Held: waiting for a decision ({@code filed} when this call made the request). */
        record Held(StoredApproval request, boolean filed) implements Outcome {}

        /** Denied: do not run it. */
        record Denied(StoredApproval request) implements Outcome {}
    }

    /**
     * Where a call that needs approval was made. An approval given in one channel never runs a call made in
     * another: an agent loop's approval is not a gateway client's, even for the same key, tool and arguments.
     */
    public enum Channel {
        /** The MCP gateway ({@code tools/call}, directly or through {@code mcp__call_tool}); no scope. */
        GATEWAY,
        /** The agent loop; the scope is the run. */
        AGENT;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The outcome of {@code requester} calling {@code tool} with {@code arguments} in {@code channel} (within
     * {@code scope}, the agent run, when the channel has one): the newest request for exactly this call decides;
     * when there is none still in force, a new pending request is filed. "Exactly this call" is the digest
     * ({@link #matchKey}) of the channel, the scope, the requester, the tool and the canonical UNREDACTED
     * arguments: an approval of {@code {"token": "a"}} never runs {@code {"token": "b"}}, and two different
     * calls never share a request. What is stored and shown are the arguments masked ({@link ArgumentRedaction}).
     */
    public Outcome request(Channel channel, String scope, String requester, String tool, Object arguments) {
        Objects.requireNonNull(channel, "channel");
        if (requester == null || requester.isBlank() || tool == null || tool.isBlank()) {
            throw new IllegalArgumentException(
                    "an approval request needs a requester and a tool, got: '" + requester + "', '" + tool + "'");
        }
        String sc = scope == null || scope.isBlank() ? null : scope;
        String hash = matchKey(channel, sc, requester, tool, arguments);
        Instant now = clock.instant();
        StoredApproval newest = null;
        for (StoredApproval a : store.loadApprovals()) {
            if (a.argumentsHash().equals(hash)
                    && a.requester().equals(requester)
                    && a.tool().equals(tool)) {
                newest = a;
            }
        }
        if (newest != null) {
            StoredApproval a = expireIfDue(newest, now);
            switch (a.status()) {
                case PENDING -> {
                    return new Outcome.Held(a, false);
                }
                case APPROVED -> {
                    if (store.transitionApproval(a.id(), ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null)) {
                        return new Outcome.Run(a.moved(ApprovalStatus.USED, null, null));
                    }
                    // a racing identical call used it first: this one is a new request
                }
                case DENIED -> {
                    if (a.decidedAt() == null || a.decidedAt().plus(ttl).isAfter(now)) {
                        return new Outcome.Denied(a);
                    }
                }
                case EXPIRED, USED -> {}
            }
        }
        String shown = ArgumentRedaction.redact(arguments).toString();
        StoredApproval filed = StoredApproval.pending(newId(), requester, tool, shown, hash, now)
                .in(channel.id(), sc);
        store.saveApproval(filed);
        return new Outcome.Held(filed, true);
    }

    /**
     * What identifies a call for approval: the SHA-256 (hex, prefixed {@code v2:} so that it never equals the
     * redacted-argument hash of a request stored by an older ToolScout) of the key-sorted JSON of the channel,
     * the scope, the requester, the tool and the canonical unredacted arguments. The store keeps this digest,
     * never the unredacted arguments.
     */
    public static String matchKey(Channel channel, String scope, String requester, String tool, Object arguments) {
        ObjectNode call = JsonNodeFactory.instance.objectNode();
        call.set("arguments", ArgumentRedaction.canonical(arguments));
        call.put("channel", channel.id());
        call.put("requester", requester);
        call.put("scope", scope);
        call.put("tool", tool);
        return "v2:" + Hashing.sha256Hex(call.toString());
    }

    /**
     * Approves or denies a pending request.
     *
     * <p>Who may: an admin (or the local operator) may approve or deny any request but never approve its own;
     * the requester, whatever its role, may deny its own request, which withdraws it. To anyone else (a user or
     * reader deciding another's request) the request answers as if it did not exist.
     *
     * @throws IllegalArgumentException naming the id and the rule: no such request (or, to a caller who is not
     *     an admin, one not its own); the approver is not entitled (not an admin approving, or approving its own
     *     request); the request is not pending (decided, used or expired)
     */
    public StoredApproval decide(String id, boolean approve, Approver approver) {
        Objects.requireNonNull(approver, "approver");
        Optional<StoredApproval> found = store.loadApproval(id == null ? "" : id.strip());
        boolean own = found.isPresent() && approver.id().equals(found.get().requester());
        if (approver.role() != Role.ADMIN && !own) {
            throw missing(id);
        }
        StoredApproval a = get(id);
        if (approve && own) {
            throw new IllegalArgumentException("approval request " + id + " was made by '" + a.requester()
                    + "', who cannot approve it: a request is approved by someone else");
        }
        if (approve && approver.role() != Role.ADMIN) {
            throw new IllegalArgumentException("approval request " + id + ": only an admin or the local operator may "
                    + "approve it, and '" + approver.id() + "' has the role "
                    + approver.role().id());
        }
        Instant now = clock.instant();
        a = expireIfDue(a, now);
        ApprovalStatus to = approve ? ApprovalStatus.APPROVED : ApprovalStatus.DENIED;
        if (a.status() == ApprovalStatus.PENDING
                && store.transitionApproval(id, ApprovalStatus.PENDING, to, approver.id(), now)) {
            return a.moved(to, approver.id(), now);
        }
        StoredApproval current = get(id);
        throw new IllegalArgumentException(
                "approval request " + id + " is " + current.status().id()
                        + (current.decidedBy() == null
                                ? ""
                                : " (by " + current.decidedBy() + " at " + current.decidedAt() + ")")
                        + "; only a pending request can be approved or denied");
    }

    /** The request with this id, expiry applied. @throws IllegalArgumentException naming the id when none */
    public StoredApproval get(String id) {
        StoredApproval a = store.loadApproval(id == null ? "" : id.strip()).orElseThrow(() -> missing(id));
        return expireIfDue(a, clock.instant());
    }

    private static UnknownRequest missing(String id) {
        String shown = id == null || id.length() <= 64 ? id : id.substring(0, 64) + "...";
        return new UnknownRequest(
                "no approval request has the id '" + shown + "' (see `toolscout approvals list --all`)");
    }

    /** No request has the id, or (to a caller who is not an admin) none of the caller's own: the two read alike. */
    public static final class UnknownRequest extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UnknownRequest(String message) {
            super(message);
        }
    }

    /** Every request, oldest first, expiry applied. */
    public List<StoredApproval> list() {
        Instant now = clock.instant();
        return store.loadApprovals().stream().map(a -> expireIfDue(a, now)).toList();
    }

    /** Moves a request past its time to expired (in the store too) and returns it as it now is. */
    private StoredApproval expireIfDue(StoredApproval a, Instant now) {
        Instant due = switch (a.status()) {
            case PENDING -> a.createdAt().plus(ttl);
            case APPROVED -> (a.decidedAt() == null ? a.createdAt() : a.decidedAt()).plus(ttl);
            default -> null;
        };
        if (due == null || due.isAfter(now)) {
            return a;
        }
        if (store.transitionApproval(a.id(), a.status(), ApprovalStatus.EXPIRED, EXPIRY, now)) {
            return a.moved(ApprovalStatus.EXPIRED, EXPIRY, now);
        }
        return store.loadApproval(a.id()).orElse(a); // someone moved it meanwhile: as it is now
    }

    private static String newId() {
        byte[] b = new byte[5];
        RANDOM.nextBytes(b);
        return "ap-" + HexFormat.of().formatHex(b);
    }
}
