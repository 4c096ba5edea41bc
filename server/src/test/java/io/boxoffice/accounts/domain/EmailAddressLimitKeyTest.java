package io.boxoffice.accounts.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/**
 * Plus-addressing makes new accounts but no new attempts: {@code local+tag@domain} is limited as
 * {@code local@domain} (issue 31, finding 13b), while each address keeps its own account key.
 */
class EmailAddressLimitKeyTest {
  static EmailAddress email(String raw) {
    return EmailAddress.parse(raw).orElseThrow();
  }

  @Test
  void aPlusTagIsCountedUnderItsMailbox() {
    assertEquals("ana@example.com", email("Ana+1@Example.com").mailbox());
    assertEquals("ana@example.com", email("ana+a+b@example.com").mailbox());
    assertEquals("ana@example.com", email("ana+@example.com").mailbox());
    assertEquals(email("ana@example.com").limitKey(), email("ana+tickets@example.com").limitKey());
    assertEquals(email("ana+1@example.com").limitKey(), email("ana+2@example.com").limitKey());
  }

  @Test
  void theAccountsStayApart() {
    assertNotEquals(email("ana+1@example.com").key(), email("ana+2@example.com").key());
    assertNotEquals(email("ana+1@example.com").key(), email("ana@example.com").key());
    assertEquals(email("ana@example.com").key(), email("ana@example.com").limitKey(), "an address without a tag is its own mailbox");
  }

  @Test
  void aPlusOutsideTheLocalPartOrAtItsStartIsKept() {
    assertEquals("+ana@example.com", email("+ana@example.com").mailbox());
    assertEquals("ana@ex+ample.com", email("ana@ex+ample.com").mailbox());
    assertNotEquals(email("bob+1@example.com").limitKey(), email("ana+1@example.com").limitKey());
  }
}
