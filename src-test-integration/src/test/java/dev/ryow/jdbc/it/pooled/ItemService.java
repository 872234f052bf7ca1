package dev.ryow.jdbc.it.pooled;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.springframework.transaction.annotation.Transactional;

/**
 * The service layer of a form-editing web application, written as Spring Data JPA writes
 * repositories: reads in {@code @Transactional(readOnly = true)}, writes in read-write transactions,
 * each call on whichever pooled connection the transaction manager takes.
 */
public class ItemService {
  @PersistenceContext
  private EntityManager em;

  /** The POST that creates a record. */
  @Transactional
  public long create(String title) {
    Item item = new Item(title);
    em.persist(item);
    return item.getId();
  }

  /** The GET that shows (or loads into a form) a record; null when not found. */
  @Transactional(readOnly = true)
  public Item find(long id) {
    return em.find(Item.class, id);
  }

  /** The POST that saves an edited form: merges the detached entity (Spring Data's {@code save}). */
  @Transactional
  public Item save(Item edited) {
    return em.merge(edited);
  }
}
