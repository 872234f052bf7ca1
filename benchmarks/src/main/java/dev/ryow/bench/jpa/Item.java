package dev.ryow.bench.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A record a web form edits (no {@code @Version}, as most entities). */
@Entity
@Table(name = "txp_item")
public class Item {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false)
  private String title;

  private int edits;

  protected Item() {}

  /** A new record. */
  public Item(String title) {
    this.title = title;
  }

  /** A detached copy of a record whose state the caller knows (a form posted back). */
  public Item(long id, String title, int edits) {
    this.id = id;
    this.title = title;
    this.edits = edits;
  }

  /** The key. */
  public Long getId() {
    return id;
  }

  /** The title. */
  public String getTitle() {
    return title;
  }

  /** Changes the title. */
  public void setTitle(String title) {
    this.title = title;
  }

  /** How often it was edited. */
  public int getEdits() {
    return edits;
  }

  /** Sets the edit count. */
  public void setEdits(int edits) {
    this.edits = edits;
  }
}
