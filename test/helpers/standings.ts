/** A 40-driver standings table's names and header, for the tests of answers from long tables (ask-long-table, ask-table-heading). */
const SURNAMES = [
  'Alder', 'Brook', 'Castell', 'Dunmore', 'Ellery', 'Fairholt', 'Garrick', 'Hollis', 'Ingram', 'Jessop',
  'Kettle', 'Lowry', 'Marlow', 'Northey', 'Osgood', 'Pelham', 'Quarry', 'Rendle', 'Sallow', 'Thorne',
  'Upton', 'Varley', 'Wexford', 'Yardley', 'Ashby', 'Bexley', 'Colby', 'Darrow', 'Easton', 'Farrow',
  'Gorman', 'Halden', 'Irwin', 'Jarrow', 'Kendal', 'Linden', 'Morrow', 'Nesbit', 'Orton', 'Penrose',
];
const GIVEN = ['Avery', 'Blake', 'Corin', 'Dallas'];
/** 40 drivers; a surname names one. */
export const DRIVERS = SURNAMES.map((surname, i) => `${GIVEN[i % 4]!} ${surname}`);
export const HEAD = ['Pos', 'Driver', 'Points', 'Wins', 'Top 5', 'Top 10'];
