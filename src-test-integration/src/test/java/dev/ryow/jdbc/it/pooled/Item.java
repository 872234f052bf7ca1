package dev.ryow.jdbc.it.pooled;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Formula;

/**
 * A record a web form edits: deliberately without {@code @Version}, as most entities are, so that a
 * stale load saved back overwrites the previous update silently (the lost update the tests look for).
 * {@code servedBy} is evaluated by whichever server ran the SELECT.
 */
@Entity
@Table(name = "it_pool_item")
public class Item {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false)
  private String title;

  private int edits;

  @Formula("@@port")
  private Integer servedBy;

  protected Item() {}

  public Item(String title) {
    this.title = title;
  }

  public Long getId() {
    return id;
  }

  public String getTitle() {
    return title;
  }

  public void setTitle(String title) {
    this.title = title;
  }

  public int getEdits() {
    return edits;
  }

  public void setEdits(int edits) {
    this.edits = edits;
  }

  public Integer getServedBy() {
    return servedBy;
  }
}
