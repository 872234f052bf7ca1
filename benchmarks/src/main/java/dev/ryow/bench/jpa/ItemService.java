package dev.ryow.bench.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.springframework.transaction.annotation.Transactional;

/** The service layer of a form-editing application, as Spring Data JPA repositories behave. */
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

  /** The GET that loads a record into a form. */
  @Transactional(readOnly = true)
  public Item find(long id) {
    return em.find(Item.class, id);
  }

  /** The POST that saves an edited form ({@code merge}, as Spring Data's {@code save}). */
  @Transactional
  public Item save(Item edited) {
    return em.merge(edited);
  }
}
