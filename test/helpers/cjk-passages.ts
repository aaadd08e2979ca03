/**
 * Short passages about Tokyo in Japanese, one of which answers "how many people live there"
 * (index 1) and one "where do tourists go" (index 3), for the question option and "Ask this
 * job": CJK text has no spaces between words.
 */
export const TOKYO_PASSAGES = [
  '東京都は日本の首都で、政治と経済の中心地である。',
  '都内の人口は約千四百万人で、年々少しずつ増えている。',
  '夏は蒸し暑く、冬は晴れた日が多く乾燥している。',
  '桜の季節には多くの観光客が上野公園を訪れる。',
  '地下鉄と私鉄が細かく結ばれ、車がなくても暮らせる。',
  '江戸時代には将軍の城下町として栄えた。',
  '毎年多くの人が地方から東京へ移り住む。',
  '東京の人々は電車で通勤することが多い。',
  '人気の観光地は浅草と渋谷である。',
  '東京湾には多くの人工島がある。',
];
