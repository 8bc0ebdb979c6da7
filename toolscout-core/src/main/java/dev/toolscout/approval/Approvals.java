package dev.toolscout.approval;

import dev.toolscout.catalog.StateStore;
import dev.toolscout.catalog.StateStore.ApprovalStatus;
import dev.toolscout.catalog.StateStore.StoredApproval;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.Role;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The approval queue: a call to a tool that needs approval ({@code ai_access: propose}) is held as a pending
 * request in the {@link StateStore}; someone entitled to approve decides it out of band (the local operator
 * through {@code toolscout approvals}, or another caller with the admin role); the requester's next identical
 * call then runs, once. Nobody approves their own request.
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

  private final StateStore store;
  private final Clock clock;
  private final Duration ttl;

  public Approvals(StateStore store, Clock clock, Duration ttl) {
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
   * The outcome of {@code requester} calling {@code tool} with {@code arguments}: the newest request for this
   * identical call (same requester, tool and redacted arguments) decides; when there is none still in force,
   * a new pending request is filed.
   */
  public Outcome request(String requester, String tool, Object arguments) {
    if (requester == null || requester.isBlank() || tool == null || tool.isBlank()) {
      throw new IllegalArgumentException("an approval request needs a requester and a tool, got: '" + requester
          + "', '" + tool + "'");
    }
    String json = ArgumentRedaction.redact(arguments).toString();
    String hash = Hashing.sha256Hex(json);
    Instant now = clock.instant();
    StoredApproval newest = null;
    for (StoredApproval a : store.loadApprovals()) {
      if (a.requester().equals(requester) && a.tool().equals(tool) && a.argumentsHash().equals(hash)) {
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
        case EXPIRED, USED -> { }
      }
    }
    StoredApproval filed = StoredApproval.pending(newId(), requester, tool, json, hash, now);
    store.saveApproval(filed);
    return new Outcome.Held(filed, true);
  }

  /**
   * Approves or denies a pending request.
   *
   * @throws IllegalArgumentException naming the id and the rule: no such request; the approver is not entitled
   *     (not an admin, or approving its own request: denying, that is withdrawing, one's own is allowed); the
   *     request is not pending (decided, used or expired)
   */
  public StoredApproval decide(String id, boolean approve, Approver approver) {
    Objects.requireNonNull(approver, "approver");
    StoredApproval a = get(id);
    if (approver.role() != Role.ADMIN) {
      throw new IllegalArgumentException("approval request " + id + ": only an admin or the local operator may "
          + "approve or deny it, and '" + approver.id() + "' has the role " + approver.role().id());
    }
    if (approve && approver.id().equals(a.requester())) {
      throw new IllegalArgumentException("approval request " + id + " was made by '" + a.requester()
          + "', who cannot approve it: a request is approved by someone else");
    }
    Instant now = clock.instant();
    a = expireIfDue(a, now);
    ApprovalStatus to = approve ? ApprovalStatus.APPROVED : ApprovalStatus.DENIED;
    if (a.status() == ApprovalStatus.PENDING
        && store.transitionApproval(id, ApprovalStatus.PENDING, to, approver.id(), now)) {
      return a.moved(to, approver.id(), now);
    }
    StoredApproval current = get(id);
    throw new IllegalArgumentException("approval request " + id + " is " + current.status().id()
        + (current.decidedBy() == null ? "" : " (by " + current.decidedBy() + " at " + current.decidedAt() + ")")
        + "; only a pending request can be approved or denied");
  }

  /** The request with this id, expiry applied. @throws IllegalArgumentException naming the id when none */
  public StoredApproval get(String id) {
    StoredApproval a = store.loadApproval(id == null ? "" : id.strip()).orElseThrow(() -> new IllegalArgumentException(
        "no approval request has the id '" + id + "' (see `toolscout approvals list --all`)"));
    return expireIfDue(a, clock.instant());
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
