package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.probes.ProbeServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ListPageTest {
  private static final String READ_AT = "2026-01-01T00:00:00Z";
  private final List<Integer> items = IntStream.range(0, 120).boxed().toList();

  @Test
  void aRequestWithoutParametersGetsTheFirstDefaultSizedPage() {
    ListPage<Integer> page = ListPage.of(READ_AT, items, query(null, null));

    assertThat(page.items()).hasSize(ListPage.DEFAULT_LIMIT).startsWith(0);
    assertThat(page.continueToken()).isNotNull();
    assertThat(page.total()).isEqualTo(120);
    assertThat(page.readAt()).isEqualTo(READ_AT);
  }

  @Test
  void followingTheContinueTokenWalksTheWholeListOnceAndTheLastPageHasNone() {
    List<Integer> walked = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      ListPage<Integer> page = ListPage.of(READ_AT, items, query("50", token));
      walked.addAll(page.items());
      token = page.continueToken();
      pages++;
    } while (token != null);

    assertThat(walked).isEqualTo(items);
    assertThat(pages).isEqualTo(3);
  }

  @Test
  void aLimitAboveTheMaximumIsLoweredToIt() {
    List<Integer> many = IntStream.range(0, ListPage.MAX_LIMIT * 2).boxed().toList();

    assertThat(ListPage.of(READ_AT, many, query("100000", null)).items()).hasSize(ListPage.MAX_LIMIT);
  }

  @Test
  void aTokenPastTheEndOfAListThatShrankGivesAnEmptyLastPage() {
    ListPage<Integer> page = ListPage.of(READ_AT, items.subList(0, 10), query("50", "50"));

    assertThat(page.items()).isEmpty();
    assertThat(page.continueToken()).isNull();
    assertThat(page.total()).isEqualTo(10);
  }

  @Test
  void anExactlyFullLastPageHasNoToken() {
    assertThat(ListPage.of(READ_AT, items, query("60", "60")).continueToken()).isNull();
  }

  @Test
  void parametersThatAreNotNumbersInRangeAreRefusedByName() {
    assertThatThrownBy(() -> ListPage.of(READ_AT, items, query("0", null)))
        .hasMessage("limit must be a whole number of at least 1, not \"0\"");
    assertThatThrownBy(() -> ListPage.of(READ_AT, items, query("ten", null)))
        .hasMessageContaining("limit must be a whole number");
    assertThatThrownBy(() -> ListPage.of(READ_AT, items, query(null, "-1")))
        .hasMessage("continue must be a whole number of at least 0, not \"-1\"");
    assertThatThrownBy(() -> ListPage.of(READ_AT, items, query(null, "abc")))
        .hasMessageContaining("continue must be a whole number");
  }

  private static ProbeServer.Request query(String limit, String continueToken) {
    Map<String, String> parameters = new HashMap<>();
    if (limit != null) {
      parameters.put("limit", limit);
    }
    if (continueToken != null) {
      parameters.put("continue", continueToken);
    }
    return new ProbeServer.Request("/ui/quotas.json", parameters, Map.of());
  }
}
