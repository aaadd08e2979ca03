import { foldTerm } from '../search/fold';

/**
 * Words a question is built with but that say nothing of what it asks: question words,
 * articles, pronouns, auxiliaries, prepositions, conjunctions. Every page has them, so a
 * passage that shares only these with "when do the trains leave?" is no answer to it: a page
 * about anything else gave back three passages for "the" and "do", and a question no page
 * could answer was never told so (SPEC §5.6: "ranked passages").
 *
 * English first, then the languages most pages Sift reads are in. A word that is also a
 * content word in English is left out of the other languages' lists, and is one of their
 * function words only in a question in that language (ALSO_ENGLISH); so is a word whose
 * accents the fold drops to an English one.
 */
const ENGLISH = `a about above after again against all am an and any are aren't as at be because been before being below between both but by
   can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't
   have haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is
   isn't it it's its itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out
   over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then
   there there's these they they'd they'll they're they've this those through to too under until up very was wasn't we we'd we'll
   we're we've were weren't what what's when when's where where's which while who who's whom why why's will with won't would
   wouldn't you you'd you'll you're you've your yours yourself yourselves also many much just does did tell me please whose`;

/** Languages written in Latin letters, whose function words tell a question in them from one in English (functionWordsOf). */
const LATIN_LISTS = {
  German: `der das den dem des ein eine einer einen einem eines und oder aber ist sind wird werden wurde wurden haben hatte
   hatten sein seine ihr ihre ich du er sie es wir ihnen mich dich sich nicht kein keine mit von zu zum zur im in auf aus bei
   nach vor unter um wie wo wer wann warum was welche welcher welches wieviel wie viele viel dass ob noch schon`,
  French: `le la les un une des du de et ou mais est sont été être avoir ont il elle ils elles je tu nous vous ce cet cette ces qui
   que quoi quel quelle quels quelles où quand comment pourquoi combien dans sur sous avec pas ne au aux leur leurs`,
  Spanish: `el los las y o pero es fue ser estar está están del al qué cuál cuáles dónde cuándo cómo por qué cuánto cuántos para por
   una unos unas que quien quién se su sus le les en de la`,
  Portuguese: `as um uma uns umas e ou mas é foi ser estar do da das no na nos nas ao aos quem qual quais onde quando como quanto
   quantos porque para por não`,
  Italian: `il gli la le uno una e o ma è sono essere di del della dei delle nel nella che quale quali quando perché quanto quanti per non un`,
  Dutch: `de het een en of maar is zijn was waren wordt worden heeft hebben ik jij hij zij wij jullie niet geen voor op aan uit bij
   naar over onder wie waar wanneer waarom hoeveel welke dat deze dit`,
  // Question words and particles, pronouns, conjunctions, postpositions and "is, is not" (from
  // Lucene's TurkishAnalyzer and stopwords-iso's tr lists). "Ankara nerede ve bu şehir ne kadar
  // büyük?" was answered with a page's cats "ve bu bir gerçek" (and this is a fact).
  // Indonesian and Malay, one list (they share most of these words): question words and their
  // -kah forms, pronouns, prepositions, conjunctions, "is, will, has, not", the written short
  // forms yg dgn utk tdk, and cara (way) of "bagaimana cara …?", which asks "how do I …?" (from
  // stopwords-iso's id and ms lists). Without them "Apa yang dimaksud dengan fotosintesis?" (what
  // is meant by photosynthesis?) was answered with a passage about nothing for its apa, yang and
  // dengan, and a Malay page was a Portuguese one to the bench's language guess.
  Indonesian: `di ke untuk dengan itu adalah ialah merupakan yaitu iaitu apa apakah siapa siapakah kapan bila bilakah
   manakah dimana bagaimana bagaimanakah mengapa kenapa berapa berapakah cara caranya tidak tak bukan belum akan sudah telah
   sedang masih atau juga dalam pada oleh karena kerana bahwa bahawa agar supaya jika kalau tetapi tapi namun serta kepada
   daripada bagi tentang seperti antara hingga sampai setelah sebelum ketika dapat bisa boleh harus hanya sangat lebih saja
   jangan janganlah saya aku kamu kalian anda engkau ia beliau kami mereka nya lah kah tersebut sebuah seorang adakah para
   yg dgn utk tdk`,
  Turkish: `ne neden niçin nasıl nerede nereye nereden hangi kaç mı mi mu mü mısın misin ve veya ile ya da de ki bu şu o bir
   için gibi kadar daha çok en değil yok olan olarak her siz onlar bunu şunu onu bunun onun`,
};

/**
 * A language's function words that are English content words too: German "war" (was) and "hat"
 * (has), German and Dutch "die" (the, that), French and Spanish "son" (his, are), French "pour"
 * and "par" (for, by), Portuguese "os" and "dos" (the, of the), Dutch "van", "met" and "hoe"
 * (of, with, how), Spanish and Italian "lo" (it, the), Italian "chi" (who), Portuguese "em" (in),
 * Turkish "kim" (who) and "ben" (I), Indonesian "yang" (that; yin and yang), "ini" (this; an .ini
 * file), "mana" (where; a game's) and "pun" (also), names; German "für" and "über" fold to
 * "fur" and "uber", Portuguese "são" to the "Sao" of São Paulo. They are function words of a
 * question in that language only (functionWordsOf). Left out for all, "Wann öffnet die
 * Bibliothek?" over a German page was answered with a passage holding "die" and nothing of a
 * library, as nearly every German passage holds "die"; kept for all (Spanish's "son", German's
 * "hat" were), "who were the sons of Zeus?" asked about Zeus alone.
 */
const ALSO_ENGLISH: Partial<Record<keyof typeof LATIN_LISTS, string>> = {
  German: 'die war hat für über',
  French: 'son pour par',
  Spanish: 'son lo',
  Portuguese: 'os dos são em',
  Italian: 'lo chi',
  Dutch: 'die van met hoe',
  Turkish: 'var kim ben sen biz ama',
  Indonesian: 'yang dan dari ada ini mana dia kita sang pun',
};

/** Lists of languages whose function words are no English word (their scripts are not Latin): function words of every question. */
const OTHER_SCRIPTS = [
  // Russian
  `и в во не на что как кто где когда сколько почему зачем какой какая какие это этот эта эти с со по к у же ли бы от из о об
   за для до а но или то он она оно они мы вы я его ее её их был была было были есть будет`,
  // Arabic: question words, pronouns, demonstratives and relatives, prepositions, conjunctions
  // and "was, is" (from the stop lists of Lucene's ArabicAnalyzer and stopwords-iso), written
  // apart; the fold drops the hamza's forms of alef (أين is اين).
  `ما ماذا من متى أين كيف لماذا هل كم أي أية هو هي هم هن هما أنا نحن أنت أنتم هذا هذه ذلك تلك هؤلاء الذي التي الذين
   في إلى على عن مع بين عند منذ حتى و أو ثم لكن بل إن أن لا لم لن قد كان كانت كانوا يكون تكون ليس ليست`,
  // Greek: articles, question words, pronouns, prepositions and their forms with the article
  // (στο, στην), conjunctions, particles and "is, was" (from Lucene's GreekAnalyzer stop list,
  // with the question words it lacks). "Πόσο ψηλός είναι ο Όλυμπος;" (how high is Olympus?) over
  // a page about Athens was answered with "Η Αθήνα είναι η πρωτεύουσα", for είναι.
  `ο η το οι τα του της των τον την τη τις τους και κι είμαι είσαι είναι είμαστε είστε ήταν στο στον στη στην στα στους στις
   μα αλλά από για προς με σε ως παρά αντί κατά μετά θα να δε δεν μη μην επί ενώ εάν αν τότε που πού πως πώς τι ποιος ποια
   ποιο ποιοι ποιες ποιων ποιους πότε γιατί πόσο πόση πόσα πόσοι πόσες αυτός αυτή αυτό αυτοί αυτών αυτούς αυτές αυτά εκείνος
   εκείνη εκείνο εκείνοι εκείνες εκείνα όπως όμως ίσως όσο ότι εγώ εσύ εμείς εσείς μου σου μας σας ένας μία μια ένα ενός`,
  // Hindi: question words, pronouns, postpositions, conjunctions and "is, was" (from Lucene's
  // HindiAnalyzer stop list), which every question and every sentence of a page have.
  `क्या कौन कौनसा कब कहाँ कहां कैसे क्यों कितना कितने कितनी है हैं था थी थे हो होता होती होते का की के में से को पर
   और या यह वह ये वे मैं हम आप तुम इस उस इन उन नहीं भी तो ही एक सी सा`,
  // Thai, as ICU cuts it into words: question words, pronouns, prepositions, conjunctions,
  // "is, has, not" and the polite particles (from PyThaiNLP's and stopwords-iso's th lists).
  // "ราคาของรถยนต์คือเท่าไร" (what does a car cost?) was answered with a page's "เมืองหลวงของประเทศไทย"
  // (the capital of Thailand), for ของ (of).
  `อะไร ใคร ที่ไหน ไหน เมื่อไร เมื่อไหร่ ทำไม อย่างไร ยังไง เท่าไร เท่าไหร่ กี่ ไหม หรือไม่ คือ เป็น มี ไม่ ได้ จะ ของ ที่ ซึ่ง ใน
   บน กับ และ หรือ แต่ ก็ ให้ ว่า จาก ถึง โดย เพื่อ แล้ว อยู่ นี้ นั้น นี่ นั่น ผม ฉัน เขา เรา คุณ มัน ครับ ค่ะ คะ บ้าง`,
  // Korean: question words and the verbs "be, have, do, become", as they stand once the
  // particle or ending joined to them is off (question.ts KOREAN_ENDING): 얼마 of 얼마입니까 (how
  // much is it?), 어떻 of 어떻습니까, 있 of 있습니까 (is there?), 합 of 합니다; 얼마나 (how much), 어디서
  // (where from) and 뭔 of 뭔가요 (what is it?) end in no particle it takes off. The bound nouns
  // 수 (할 수 있다, can), 것 (thing, that), 데 (for doing) and 때문 (because) follow a verb and
  // name nothing: of TypeScript's 2,120 Korean messages, 691 hold 수 so (4 a number), 35 것, 10 데,
  // 24 때문, and a question with "can" was answered by any passage saying what cannot be done.
  // 줄 and 바 are left: 줄 was a line (줄 바꿈, line break) 5 times of 5, 바 bound none.
  `어디 어디서 무엇 뭐 뭘 뭔 무슨 어떤 언제 누구 누가 얼마 얼마나 어떻 어느 몇 왜 이것 그것 저것 이 그 저 있 없 하 합 되 됩
   수 것 데 때문`,
];

/** A list's words as ranking folds a question's (lower case, no accents: "où" is "ou"), and the parts of a contraction ("don't": don, t), as the question's words are split. */
const folded = (list: string): Set<string> =>
  new Set(
    list
      .split(/\s+/)
      .flatMap((w) => [w, ...w.split(/['’]/)])
      .map(foldTerm)
      .filter(Boolean),
  );

/** Every list's words, folded: a function word in any language, but those English writes as content words (ALSO_ENGLISH). */
export const FUNCTION_WORDS: ReadonlySet<string> = folded([ENGLISH, ...Object.values(LATIN_LISTS), ...OTHER_SCRIPTS].join(' '));

/** The function words of every question: English's and those of languages not written in Latin letters. */
const ALWAYS: ReadonlySet<string> = folded([ENGLISH, ...OTHER_SCRIPTS].join(' '));

/**
 * A run of hiragana only, as a Japanese question's character pairs (questionTerms) cut it:
 * particles, the polite endings and auxiliaries (です, すか, ます, ている, どう) are written in
 * hiragana, a question's words that say what it asks in kanji and katakana. No list holds
 * every such pair, as pairs cross word ends (天気はどうですか gives はど, どう, うで, です, すか),
 * and a Japanese question about anything was answered with every passage in the polite form.
 */
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;

/**
 * Chinese characters that build a question and every sentence, but say nothing of what is asked:
 * the one-character function words (particles, pronouns, question words, prepositions,
 * conjunctions, auxiliaries, measure words 个 and 些) found in the usual Chinese stop lists
 * (the Harbin Institute of Technology's, Baidu's, stopwords-iso's zh list), keeping only those
 * that are among Chinese's most frequent characters. 由 and 中, 上, 下 are left out: 自由 (freedom)
 * and 中文, 上网 are words a question asks about.
 */
const CHINESE_FUNCTION_CHARS = new Set(
  [...'的了是在和与及或也都就还又而但并且则即之其此这那哪些个么什怎谁吗呢吧啊呀把被给对向从于以为让使将着过得地我你您他她它们自己有没不很更最如何若因所该能会可要多少几一'],
);

/**
 * A Chinese question's character pair (questionTerms) made of function characters only: 什么,
 * 这个, 是什, 多少, 可以. "上海的人口是多少" has no spaces, and 是多 and 多少 matched every passage
 * of a Chinese manual saying how many of anything: it was answered with three of them. A pair
 * with one such character (点是, 的优) is left to rank, as 目的 (purpose), 了解 (to understand) and
 * 有效 (valid) are words of that kind.
 */
const isChineseFunctionPair = (term: string): boolean => /^\p{Script=Han}+$/u.test(term) && [...term].every((c) => CHINESE_FUNCTION_CHARS.has(c));

/**
 * Whether a question's word (folded, as ranking reads it) says nothing of what it asks, in any
 * question: English's and other scripts' function words (ALWAYS), Japanese grammar
 * (HIRAGANA_ONLY) or Chinese function characters. A Latin-lettered language's are so in a
 * question in it only (functionWordsOf).
 */
export const isFunctionWord = (term: string): boolean => ALWAYS.has(term) || HIRAGANA_ONLY.test(term) || isChineseFunctionPair(term);

const ENGLISH_WORDS = folded(ENGLISH);
const LATIN_WORDS = (Object.keys(LATIN_LISTS) as (keyof typeof LATIN_LISTS)[]).map((lang) => ({
  words: folded(LATIN_LISTS[lang]),
  alsoEnglish: folded(ALSO_ENGLISH[lang] ?? ''),
}));

/** A word in capitals, of two letters or more: a name or an abbreviation (LA, OP, US, IT, WHO) in a question written in lower case too. */
const CAPITALS = /^\p{Lu}{2,}$/u;

/**
 * isFunctionWord as the question's language reads it, with the function words of each language
 * written in Latin letters the question reads as that language:
 * - a word of that language's list, when the question's other words hold at least as many of
 *   its list's (English's aside) as of English's that are not its: "Quelle est la population
 *   de Paris?" is French, and its la and de are function words; "What is the population of
 *   la?" and "What does op mean?" are English, and ask about la and op, which every question
 *   dropped before (French la, Dutch op), asking about "population" and "mean" alone. A
 *   question with no word of either ("la tour eiffel") keeps them function words, as before.
 * - a word English writes as a content word (ALSO_ENGLISH), when the question holds more of
 *   its list's words than of English's: "Wann öffnet die Bibliothek?" holds German's wann and
 *   none of English's: its "die" is German's; "When did Die Hard come out?" holds when and did
 *   and none of German's: its "die" is a word it asks about; "Die Bibliothek?" keeps "die".
 * None is a function word written in capitals (CAPITALS) in a question that is not all in them.
 */
export function functionWordsOf(question: string): (term: string) => boolean {
  const raw = question.split(/[^\p{L}\p{M}\p{N}]+/u);
  const names = /\p{Ll}/u.test(question) ? new Set(raw.filter((w) => CAPITALS.test(w)).map(foldTerm)) : new Set<string>();
  const words = raw.map(foldTerm);
  const theirs = new Set<string>();
  for (const lang of LATIN_WORDS) {
    const own = words.filter((w) => lang.words.has(w) && !ENGLISH_WORDS.has(w));
    const english = words.filter((w) => ENGLISH_WORDS.has(w) && !lang.words.has(w)).length;
    for (const w of lang.words) if (!ENGLISH_WORDS.has(w) && own.filter((o) => o !== w).length >= english) theirs.add(w);
    if (own.length > english) for (const w of lang.alsoEnglish) theirs.add(w);
  }
  return (term) => !names.has(term) && (theirs.has(term) || isFunctionWord(term));
}
