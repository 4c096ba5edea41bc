package io.boxoffice.venue.domain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A venue compiled for fast lookups: every seat has an index in seat-map order (sections,
 * rows, seats as the layout lists them), rows are contiguous index ranges, and each seat has
 * drawing coordinates. Immutable once built.
 */
public final class SeatMap {
  private final VenueLayout layout;
  private final String[] seatIds;
  private final int[] seatRow;
  private final int[] seatNumber;
  private final float[] x;
  private final float[] y;
  private final int[] rowStart;
  private final int[] rowLength;
  private final int[] rowSection;
  private final int[] rowPositionInSection;
  private final int[] rowZone;
  private final String[] rowIds;
  private final String[] sectionIds;
  private final List<String> zones;
  private final Map<String, Integer> indexById;

  private SeatMap(VenueLayout layout) {
    this.layout = layout;
    int seats = layout.seatCount();
    int rows = 0;
    for (VenueLayout.Section s : layout.sections()) rows += s.rows().size();
    seatIds = new String[seats];
    seatRow = new int[seats];
    seatNumber = new int[seats];
    x = new float[seats];
    y = new float[seats];
    rowStart = new int[rows];
    rowLength = new int[rows];
    rowSection = new int[rows];
    rowPositionInSection = new int[rows];
    rowZone = new int[rows];
    rowIds = new String[rows];
    sectionIds = new String[layout.sections().size()];
    Map<String, Integer> zoneIndex = new LinkedHashMap<>();
    indexById = new HashMap<>(seats * 2);

    Geometry geometry = new Geometry(layout);
    int seat = 0;
    int row = 0;
    for (int s = 0; s < layout.sections().size(); s++) {
      VenueLayout.Section section = layout.sections().get(s);
      sectionIds[s] = section.sectionId();
      int zone = zoneIndex.computeIfAbsent(section.zone(), z -> zoneIndex.size());
      for (int r = 0; r < section.rows().size(); r++) {
        VenueLayout.Row rowSpec = section.rows().get(r);
        rowStart[row] = seat;
        rowLength[row] = rowSpec.seats();
        rowSection[row] = s;
        rowPositionInSection[row] = r;
        rowZone[row] = zone;
        rowIds[row] = rowSpec.rowId();
        for (int n = 1; n <= rowSpec.seats(); n++) {
          String id = section.sectionId() + "-" + rowSpec.rowId() + "-" + n;
          seatIds[seat] = id;
          seatRow[seat] = row;
          seatNumber[seat] = n;
          float[] xy = geometry.position(s, r, n, rowSpec.seats());
          x[seat] = xy[0];
          y[seat] = xy[1];
          if (indexById.put(id, seat) != null) throw new IllegalArgumentException("duplicate seat id " + id);
          seat++;
        }
        row++;
      }
    }
    zones = List.copyOf(new ArrayList<>(zoneIndex.keySet()));
  }

  public static SeatMap compile(VenueLayout layout) {
    return new SeatMap(layout);
  }

  public VenueLayout layout() { return layout; }
  public int seatCount() { return seatIds.length; }
  public int rowCount() { return rowStart.length; }
  public String seatId(int seat) { return seatIds[seat]; }
  public int rowOf(int seat) { return seatRow[seat]; }
  public int seatNumber(int seat) { return seatNumber[seat]; }
  public float x(int seat) { return x[seat]; }
  public float y(int seat) { return y[seat]; }
  public int rowStart(int row) { return rowStart[row]; }
  public int rowLength(int row) { return rowLength[row]; }
  public int rowSection(int row) { return rowSection[row]; }
  public int rowPositionInSection(int row) { return rowPositionInSection[row]; }
  public int rowZone(int row) { return rowZone[row]; }
  public String rowId(int row) { return rowIds[row]; }
  public String sectionId(int section) { return sectionIds[section]; }
  public int zoneOf(int seat) { return rowZone[seatRow[seat]]; }
  /** Zone names in order of first appearance; a zone's index is its position here. */
  public List<String> zones() { return zones; }

  /** The seat's index, or -1 for a seat this venue does not have. */
  public int indexOf(String seatId) {
    Integer i = seatId == null ? null : indexById.get(seatId);
    return i == null ? -1 : i;
  }

  /**
   * Drawing coordinates, about one unit between neighbouring seats everywhere: floor-like
   * sections (the first zone) side by side on a grid in the middle; every later zone on a ring
   * around what is inside it, one unit of arc a seat and one unit a row outwards, its sections
   * one after another around the ring (centred at the top when they need less than a full turn).
   * The ring's radius is what its seats need, and never less than what lies inside plus a gap.
   */
  private static final class Geometry {
    private static final double GAP = 4;
    private final int[] ring;
    private final double[] sectionStart;
    private final int[] sectionWidth;
    private final int[] gridColumn;
    private final double[] ringRadius;
    private final double[] ringCircumference;
    private final double floorWidth;
    private final double floorDepth;

    Geometry(VenueLayout layout) {
      int n = layout.sections().size();
      ring = new int[n];
      sectionStart = new double[n];
      sectionWidth = new int[n];
      gridColumn = new int[n];
      Map<String, Integer> ringOfZone = new LinkedHashMap<>();
      List<Double> used = new ArrayList<>();
      List<Integer> depth = new ArrayList<>();
      int column = 0;
      int floorRows = 0;
      for (int s = 0; s < n; s++) {
        VenueLayout.Section section = layout.sections().get(s);
        int r = ringOfZone.computeIfAbsent(section.zone(), z -> ringOfZone.size());
        ring[s] = r;
        sectionWidth[s] = widest(section);
        if (used.size() <= r) { used.add(0.0); depth.add(0); }
        if (r == 0) {
          gridColumn[s] = column;
          column += sectionWidth[s] + 2;
          floorRows = Math.max(floorRows, section.rows().size());
        } else {
          sectionStart[s] = used.get(r);
          used.set(r, used.get(r) + sectionWidth[s] + 2);
          depth.set(r, Math.max(depth.get(r), section.rows().size()));
        }
      }
      floorWidth = Math.max(0, column - 2);
      floorDepth = floorRows;
      int rings = used.size();
      ringRadius = new double[rings];
      ringCircumference = new double[rings];
      double outer = Math.hypot(floorWidth / 2, floorDepth / 2);
      for (int r = 1; r < rings; r++) {
        double radius = Math.max(outer + GAP, used.get(r) / (2 * Math.PI));
        ringRadius[r] = radius;
        ringCircumference[r] = 2 * Math.PI * radius;
        // Sections that need less than the whole turn sit centred at the top.
        double offset = -used.get(r) / 2;
        for (int s = 0; s < n; s++) if (ring[s] == r) sectionStart[s] += offset;
        outer = radius + depth.get(r);
      }
    }

    private static int widest(VenueLayout.Section section) {
      int w = 0;
      for (VenueLayout.Row r : section.rows()) w = Math.max(w, r.seats());
      return w;
    }

    float[] position(int section, int row, int number, int rowSeats) {
      // A shorter row is centred in its section.
      double along = (sectionWidth[section] - rowSeats) / 2.0 + number - 0.5;
      if (ring[section] == 0) {
        return new float[] {(float) (gridColumn[section] + along - floorWidth / 2), (float) (row + 0.5 - floorDepth / 2)};
      }
      int r = ring[section];
      double radius = ringRadius[r] + row;
      // Arc length measured on the ring's inner edge; angle 0 at the top, clockwise.
      double angle = 2 * Math.PI * (sectionStart[section] + along) / ringCircumference[r] - Math.PI / 2;
      return new float[] {(float) (radius * Math.cos(angle)), (float) (radius * Math.sin(angle))};
    }
  }
}
