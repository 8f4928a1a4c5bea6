package info.vannier.gotha;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
/**
 * A test helper (not part of duiyi): many OpenGotha questions answered by one JVM, so that the
 * oracle tests do not pay OpenGotha's start-up once per file and round. It calls the same
 * OpenGotha methods as the helpers OGDump.java and OGH9.java beside ogdump.sh (a copy extended
 * with a parameter dump), compiled against opengotha.jar into a temporary folder by the tests.
 *
 * Reads jobs from standard input, one per line, tab-separated:
 *   dump   FILE  ROUND          OGDump's output (ROUND 0-based, -1: last round with games),
 *                               each row followed by DC, SDC, CAT and every placement
 *                               criterion's stored value
 *   h9     FILE  OUT  KEEP      ExternalDocument.generateH9File(tournament, OUT, KEEP)
 *   params FILE                 the parameter sets, players, games and byes as OpenGotha read them
 * and answers each with its lines, then a line "#end".
 */
public class OGBatch {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));  // OpenGotha's own notes
    String line;
    while ((line = in.readLine()) != null) {
      String[] job = line.split("\t");
      try {
        TournamentInterface t = Gotha.getTournamentFromFile(new File(job[1]));
        if (job[0].equals("dump")) dump(t, Integer.parseInt(job[2]), out);
        else if (job[0].equals("h9")) ExternalDocument.generateH9File(t, new File(job[2]), Boolean.parseBoolean(job[3]));
        else if (job[0].equals("params")) params(t, out);
      } catch (Exception e) {
        out.println("#error " + e);
      }
      out.println("#end");
    }
    System.exit(0);
  }

  static void dump(TournamentInterface t, int rn, PrintStream out) throws Exception {
    if (rn < 0) {
      rn = -1;
      for (int r = 0; r < Gotha.MAX_NUMBER_OF_ROUNDS; r++) if (t.gamesList(r).size() > 0) rn = r;
    }
    PlacementParameterSet pps = t.getTournamentParameterSet().getPlacementParameterSet();
    GeneralParameterSet gps = t.getTournamentParameterSet().getGeneralParameterSet();
    ArrayList<ScoredPlayer> l = t.orderedScoredPlayersList(rn, pps);
    int[] crit = pps.getPlaCriteria();
    StringBuilder head = new StringBuilder("#round=" + (rn + 1) + " crit=");
    for (int c : crit) head.append(c).append(",");
    out.println(head + " bar=" + gps.getGenMMBar() + " floor=" + gps.getGenMMFloor()
        + " byeX2=" + gps.getGenMMS2ValueBye() + " absX2=" + gps.getGenMMS2ValueAbsent()
        + " nbwByeX2=" + gps.getGenNBW2ValueBye() + " halfpt=" + gps.isGenCountNotPlayedGamesAsHalfPoint()
        + " zero=" + gps.getGenMMZero());
    int pos = 0;
    for (ScoredPlayer sp : l) {
      pos++;
      out.println(pos + "\t" + sp.getKeyString() + "\t" + sp.smms(gps)
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_NBW, rn) / 2.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_MMS, rn) / 2.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SOSM, rn) / 2.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SOSOSM, rn) / 2.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SODOSM, rn) / 4.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SOSW, rn) / 2.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SOSOSW, rn) / 2.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SODOSW, rn) / 4.0
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_DC, rn)
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_SDC, rn)
          + "\t" + sp.getCritValue(PlacementParameterSet.PLA_CRIT_CAT, rn)
          + "\t" + rawValues(sp, crit, rn));
    }
  }

  /** The stored value (x2, x4 as OpenGotha keeps it) of each placement criterion, in order. */
  static String rawValues(ScoredPlayer sp, int[] crit, int rn) {
    StringBuilder b = new StringBuilder();
    for (int c : crit) b.append(sp.getCritValue(c, rn)).append(",");
    return b.toString();
  }

  static void params(TournamentInterface t, PrintStream out) throws Exception {
    TournamentParameterSet tps = t.getTournamentParameterSet();
    GeneralParameterSet g = tps.getGeneralParameterSet();
    HandicapParameterSet h = tps.getHandicapParameterSet();
    out.println("name=" + g.getName());
    out.println("numberOfRounds=" + g.getNumberOfRounds());
    out.println("basicTime=" + g.getBasicTime());
    out.println("complementaryTimeSystem=" + g.getComplementaryTimeSystem());
    out.println("stdByoYomiTime=" + g.getStdByoYomiTime());
    out.println("canByoYomiTime=" + g.getCanByoYomiTime());
    out.println("nbMovesCanTime=" + g.getNbMovesCanTime());
    out.println("fischerTime=" + g.getFischerTime());
    out.println("komi=" + g.getStrKomi());
    out.println("size=" + g.getStrSize());
    out.println("genMMBar=" + g.getGenMMBar());
    out.println("genMMFloor=" + g.getGenMMFloor());
    out.println("genMMS2ValueBye=" + g.getGenMMS2ValueBye());
    out.println("genMMS2ValueAbsent=" + g.getGenMMS2ValueAbsent());
    out.println("genNBW2ValueBye=" + g.getGenNBW2ValueBye());
    out.println("genNBW2ValueAbsent=" + g.getGenNBW2ValueAbsent());
    out.println("hdCorrection=" + h.getHdCorrection());
    out.println("hdCeiling=" + h.getHdCeiling());
    out.println("hdNoHdRankThreshold=" + h.getHdNoHdRankThreshold());
    out.println("hdBasedOnMMS=" + h.isHdBasedOnMMS());
    out.println("egfClass=" + t.egfClass());
    out.println("egfAdjustedTime=" + t.egfAdjustedTime());
    StringBuilder crit = new StringBuilder("criteria=");
    for (int c : tps.getPlacementParameterSet().getPlaCriteria()) crit.append(PlacementParameterSet.criterionLongName(c)).append(",");
    out.println(crit);
    out.println("tournamentType=" + tps.tournamentType());
    for (Player p : t.playersList()) {
      StringBuilder part = new StringBuilder();
      boolean[] bp = p.getParticipating();
      for (int r = 0; r < g.getNumberOfRounds(); r++) part.append(bp[r] ? "1" : "0");
      out.println("player\t" + p.getKeyString() + "\t" + p.getName() + "\t" + p.getFirstName() + "\t"
          + Player.convertIntToKD(p.getRank()) + "\t" + p.getRating() + "\t" + p.getClub() + "\t"
          + p.getCountry() + "\t" + part + "\t" + p.getSmmsCorrection());
    }
    for (Game gm : t.gamesList()) {
      out.println("game\t" + (gm.getRoundNumber() + 1) + "\t" + (gm.getTableNumber() + 1) + "\t"
          + gm.getBlackPlayer().getKeyString() + "\t" + gm.getWhitePlayer().getKeyString() + "\t"
          + gm.getResult() + "\t" + gm.getHandicap());
    }
    Player[] byes = t.getByePlayers();
    for (int r = 0; r < byes.length; r++) if (byes[r] != null) out.println("bye\t" + (r + 1) + "\t" + byes[r].getKeyString());
  }
}
