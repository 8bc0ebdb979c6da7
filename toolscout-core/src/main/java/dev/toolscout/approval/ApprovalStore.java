package dev.toolscout.approval;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The approval requests of tools that need one, moved between statuses by compare and set. Thread-safe.
 */
public interface ApprovalStore {
    /**
     * Stores a new approval request, durable on return. Thread-safe.
     *
     * @throws IllegalArgumentException when a request with the same id is already stored (nothing is changed)
     */
    void saveApproval(StoredApproval approval);

    /** The approval request with this id (exact match), if one is stored. */
    Optional<StoredApproval> loadApproval(String id);

    /** Every stored approval request, oldest first (by creation time, then id); empty when none. */
    List<StoredApproval> loadApprovals();

    /**
     * Moves one approval request from status {@code from} to {@code to} atomically (compare and set), durable on
     * return: of several callers making the same move, exactly one succeeds. With {@code decidedBy} and {@code
     * decidedAt} both null the request keeps who decided it and when (marking an approved request used).
     *
     * @return true when the request was in {@code from} and is now in {@code to}; false when there is no such
     *     request or it was in another status (nothing is changed)
     */
    boolean transitionApproval(String id, ApprovalStatus from, ApprovalStatus to, String decidedBy, Instant decidedAt);

    /** Where an approval request stands. */
    enum ApprovalStatus {
        /** Waiting for someone entitled to approve it. */
        PENDING,
        /** Approved; the requester's next identical call runs, once. */
        APPROVED,
        /** Denied; the identical call is refused. */
        DENIED,
        /** Not decided (or, approved, not used) in time; an identical call files a new request. */
        EXPIRED,
        /** Approved and run once; an identical call files a new request. */
        USED;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One request to run a tool that needs approval.
     *
     * @param id the request's unique id (what an approver names)
     * @param requester who asked (a caller id such as {@code key:alice}); never the one who may approve it
     * @param tool the tool's full name
     * @param argumentsJson the call's arguments as canonical JSON, secrets masked (never a secret in clear)
     * @param argumentsHash what identifies exactly this call ({@code approval.Approvals.matchKey}: a digest of
     *     the unredacted arguments, channel, scope, requester and tool); an identical later call has the same one
     * @param createdAt when it was asked (kept to the millisecond, as stored)
     * @param decidedBy who approved or denied it ({@code null} while pending)
     * @param decidedAt when ({@code null} while pending; kept to the millisecond)
     * @param channel where the call was made ({@code gateway}, {@code agent}); {@code null} for a request stored
     *     before channels were recorded
     * @param scope within the channel, the agent run that made it; {@code null} when the channel has none
     */
    record StoredApproval(
            String id,
            String requester,
            String tool,
            String argumentsJson,
            String argumentsHash,
            Instant createdAt,
            ApprovalStatus status,
            String decidedBy,
            Instant decidedAt,
            String channel,
            String scope) {
        /** A request without a channel or scope (as stored before they were recorded). */
        public StoredApproval(
                String id,
                String requester,
                String tool,
                String argumentsJson,
                String argumentsHash,
                Instant createdAt,
                ApprovalStatus status,
                String decidedBy,
                Instant decidedAt) {
            this(
                    id,
                    requester,
                    tool,
                    argumentsJson,
                    argumentsHash,
                    createdAt,
                    status,
                    decidedBy,
                    decidedAt,
                    null,
                    null);
        }

        public StoredApproval {
            for (String[] f : new String[][] {
                {"id", id},
                {"requester", requester},
                {"tool", tool},
                {"argumentsJson", argumentsJson},
                {"argumentsHash", argumentsHash}
            }) {
                if (f[1] == null || f[1].isBlank()) {
                    throw new IllegalArgumentException(
                            "approval request '" + id + "': " + f[0] + " must not be blank, got: '" + f[1] + "'");
                }
            }
            if (createdAt == null || status == null) {
                throw new IllegalArgumentException("approval request '" + id
                        + "': createdAt and status are required, got: " + createdAt + ", " + status);
            }
            createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
            decidedAt = decidedAt == null ? null : decidedAt.truncatedTo(ChronoUnit.MILLIS);
            channel = channel == null || channel.isBlank() ? null : channel;
            scope = scope == null || scope.isBlank() ? null : scope;
        }

        /** This request made in {@code channel}, within {@code scope} (either may be null). */
        public StoredApproval in(String channel, String scope) {
            return new StoredApproval(
                    id,
                    requester,
                    tool,
                    argumentsJson,
                    argumentsHash,
                    createdAt,
                    status,
                    decidedBy,
                    decidedAt,
                    channel,
                    scope);
        }

        /** A new pending request. */
        public static StoredApproval pending(
                String id,
                String requester,
                String tool,
                String argumentsJson,
                String argumentsHash,
                Instant createdAt) {
            return new StoredApproval(
                    id, requester, tool, argumentsJson, argumentsHash, createdAt, ApprovalStatus.PENDING, null, null);
        }

        /** This request in another status (decider kept when both are null). */
        public StoredApproval moved(ApprovalStatus to, String by, Instant at) {
            boolean keep = by == null && at == null;
            return new StoredApproval(
                    id,
                    requester,
                    tool,
                    argumentsJson,
                    argumentsHash,
                    createdAt,
                    to,
                    keep ? decidedBy : by,
                    keep ? decidedAt : at,
                    channel,
                    scope);
        }
    }
}
