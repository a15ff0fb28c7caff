package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who may read the dashboard when it asks for a login: a request carries a Kubernetes bearer
 * token, which the API server authenticates (a TokenReview), and the token's user must be allowed
 * to list QueueUnits in every namespace (a SubjectAccessReview), since the dashboard shows every
 * unit of the cluster. Each token's verdict is remembered for {@link #REMEMBERED_FOR}, so a page
 * that polls every two seconds costs the API server one pair of reviews per that time, and a
 * revoked token or right stops working within it.
 */
public final class TokenAccess {
  static final Duration REMEMBERED_FOR = Duration.ofSeconds(30);
  /**
   * Tokens remembered at most, the least recently used forgotten first: a flood of made-up tokens
   * must not fill the heap.
   */
  static final int REMEMBERED = 1_000;

  /** What a request may do. */
  public enum Verdict { ALLOWED, NO_TOKEN, BAD_TOKEN, NOT_ALLOWED }

  /** The reviews the API server makes. */
  public interface Reviews {
    /** The user the token authenticates; empty when the API server does not accept the token. */
    Optional<UserInfo> authenticate(String token);

    /** Whether the user may list QueueUnits in every namespace. */
    boolean mayListQueueUnits(UserInfo user);
  }

  private record Remembered(Verdict verdict, Instant until) {}

  private final Reviews reviews;
  private final InstantSource clock;
  /** By the token's SHA-256, so that the tokens themselves are not kept. Guarded by itself. */
  private final Map<String, Remembered> remembered = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
      return size() > REMEMBERED;
    }
  };

  public TokenAccess(Reviews reviews, InstantSource clock) {
    this.reviews = reviews;
    this.clock = clock;
  }

  /**
   * The verdict on a request with this Authorization header, if any.
   *
   * @throws RuntimeException when the API server cannot be asked; nothing is remembered then
   */
  public Verdict check(Optional<String> authorization) {
    Optional<String> token = authorization.flatMap(TokenAccess::bearerToken);
    if (token.isEmpty()) {
      return Verdict.NO_TOKEN;
    }
    String key = sha256(token.get());
    Instant now = clock.instant();
    Optional<Verdict> known = recall(key, now);
    if (known.isPresent()) {
      return known.get();
    }
    Verdict verdict = review(token.get());
    synchronized (remembered) {
      remembered.put(key, new Remembered(verdict, now.plus(REMEMBERED_FOR)));
    }
    return verdict;
  }

  private Optional<Verdict> recall(String key, Instant now) {
    synchronized (remembered) {
      return Optional.ofNullable(remembered.get(key)).filter(r -> now.isBefore(r.until())).map(Remembered::verdict);
    }
  }

  private Verdict review(String token) {
    return reviews.authenticate(token)
        .map(user -> reviews.mayListQueueUnits(user) ? Verdict.ALLOWED : Verdict.NOT_ALLOWED)
        .orElse(Verdict.BAD_TOKEN);
  }

  /** The token of an {@code Authorization: Bearer <token>} header. */
  static Optional<String> bearerToken(String authorization) {
    String[] parts = authorization.strip().split("\\s+", 2);
    return parts.length == 2 && parts[0].equalsIgnoreCase("Bearer") ? Optional.of(parts[1]) : Optional.empty();
  }

  private static String sha256(String token) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
