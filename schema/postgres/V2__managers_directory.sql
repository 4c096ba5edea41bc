-- What event managers list (GET /admin/events, GET /admin/venues) after any restart, without
-- waking an entity: each event's name and venue and whether it was opened (tag 'event': whether it
-- is scheduled is its 'onsale' row in onsale_catalogue), and each venue's name and size (tag
-- 'venue'). Kept by the admin-directory projection (io.boxoffice.admin.Directory), one writer per table.
CREATE TABLE IF NOT EXISTS event_directory (
  event_id VARCHAR(255) PRIMARY KEY,
  name VARCHAR(1000),
  venue_id VARCHAR(255),
  opened BOOLEAN DEFAULT FALSE NOT NULL
);

CREATE TABLE IF NOT EXISTS venue_directory (
  venue_id VARCHAR(255) PRIMARY KEY,
  name VARCHAR(1000),
  seat_count INTEGER NOT NULL
);
