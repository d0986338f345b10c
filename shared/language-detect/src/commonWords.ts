/**
 * The most frequent short words of each detectable language that shares its script with others: function words,
 * pronouns, question words, greetings and the verbs people use when they ask for something. A trigram model
 * (franc) needs more text than a chat message usually has; these words carry the decision for short messages.
 * A word listed under several languages counts less for each (see languageDetector.ts). Words every language
 * borrows (ok, app) and Kasa's own name (Twi for "speak") are left out.
 */
export const COMMON_WORDS: Record<string, string> = {
  en: `the a an and or but is are was were be been am i you he she it we they me my your our their this that these
    those what which who whom whose why how when where there here do does did don't doesn't can can't could would
    should will won't not no yes please thanks thank hello hi hey good morning evening night with for from about of
    to in on at by get got make help need want know tell show give find use try like just also very really much many
    some any more most have has had having after before because if then than so again still now today tomorrow
    yesterday it's i'm what's let's sorry`,
  fr: `le la les un une des du de et ou mais est sont était être avoir je tu il elle nous vous ils elles me te se
    mon ma mes ton ta tes son sa ses notre votre leur ce cette ces qui que quoi quel quelle quels comment pourquoi où
    quand combien oui non pas ne plus très bien merci bonjour bonsoir salut s'il plaît avec pour dans sur chez par
    aussi encore je suis c'est j'ai aujourd'hui demain hier peux pouvez veux voudrais faire fait besoin aide aider
    comprends sais`,
  es: `el la los las un una unos unas y o pero es son era ser estar está están estoy yo tú él ella nosotros ustedes
    ellos me te se mi mis tu tus su sus nuestro este esta estos esas eso qué que quién cuál cómo por porqué dónde
    cuándo cuánto cuánta sí no muy bien gracias hola buenos buenas días noches con para en del al también hoy mañana
    ayer puedo puedes quiero necesito hacer ayuda tengo hay`,
  pt: `o a os as um uma uns umas e ou mas é são era ser estar está estão estou eu tu ele ela nós vocês eles me te se
    meu minha meus minhas seu sua teu tua nosso este esta isso isto que quem qual como porque onde quando quanto sim
    não muito bem obrigado obrigada olá oi bom dia boa noite com para em no na nos nas do da dos das pelo pela também
    hoje amanhã ontem posso pode quero preciso fazer ajuda tenho tem você`,
  it: `il lo la i gli le un una uno e o ma è sono era essere io tu lui lei noi voi loro mi ti si ci mio mia miei tuo
    tua suo sua nostro questo questa quello che chi cosa quale come perché dove quando quanto sì no non molto bene
    grazie ciao buongiorno buonasera con per in nel nella del della dei al alla anche oggi domani ieri posso puoi
    voglio vorrei ho hai ha fare aiuto bisogno`,
  de: `der die das den dem des ein eine einen einem und oder aber ist sind war sein ich du er sie es wir ihr mich
    dich mir dir mein meine dein deine unser was wer welche welcher wie warum wo wann wieviel ja nein nicht kein
    keine sehr gut danke bitte hallo guten morgen abend mit für von zu im in auf bei auch noch heute morgen gestern
    kann kannst will möchte brauche habe hast hat machen hilfe`,
  nl: `de het een en of maar is zijn was ben ik jij je hij zij ze wij we jullie mij me mijn jouw uw ons onze wat wie
    welke hoe waarom waar wanneer hoeveel ja nee niet geen heel erg goed dank bedankt alsjeblieft hallo goedemorgen
    met voor van naar in op bij ook nog vandaag morgen gisteren kan kun kunt wil wilt heb hebt heeft maken hulp nodig`,
  sv: `en ett och eller men är var vara jag du han hon det vi ni de mig dig min mitt mina din ditt vår vad vem vilken
    hur varför var när ja nej inte ingen mycket bra tack hej god morgon kväll med för från till i på av också idag
    imorgon igår kan vill behöver har göra hjälp`,
  da: `en et og eller men er var være jeg du han hun det vi i de mig dig min mit mine din dit vores hvad hvem hvilken
    hvordan hvorfor hvor hvornår ja nej ikke ingen meget godt tak hej godmorgen med for fra til på af også nu i dag
    i morgen i går kan vil har gøre hjælp brug noget`,
  nb: `en et og eller men er var være jeg du han hun det vi dere de meg deg min mitt mine din ditt vår hva hvem hvilken
    hvordan hvorfor hvor når ja nei ikke ingen veldig bra takk hei god morgen med for fra til på av også nå i dag i
    morgen i går kan vil har gjøre hjelp trenger noe`,
  pl: `i w na z do się nie jest są był być ja ty on ona my wy oni mnie mi ciebie mój moja twój twoja nasz co kto który
    jak dlaczego gdzie kiedy ile tak nie bardzo dobrze dziękuję proszę cześć dzień dobry z dla od po też dzisiaj
    jutro wczoraj mogę możesz chcę potrzebuję mam zrobić pomoc czy`,
  cs: `a v na s do se je jsou byl být já ty on ona my vy oni mě mi tebe můj moje tvůj tvoje náš co kdo který jak proč
    kde kdy kolik ano ne není moc velmi dobře děkuji prosím ahoj dobrý den pro od po taky také dnes zítra včera můžu
    můžeš chci potřebuji mám udělat pomoc`,
  sk: `a v na s do sa je sú bol byť ja ty on ona my vy oni mňa mi teba môj moja tvoj tvoja náš čo kto ktorý ako prečo
    kde kedy koľko áno nie veľmi dobre ďakujem prosím ahoj dobrý deň pre od po tiež dnes zajtra včera môžem môžeš
    chcem potrebujem mám urobiť pomoc`,
  ro: `și în la cu de pe un o este sunt era fi eu tu el ea noi voi ei mă îmi te meu mea mei tău ta nostru ce cine care
    cum de ce unde când cât da nu foarte bine mulțumesc mersi te rog bună salut pentru din și azi astăzi mâine ieri pot
    poți vreau am nevoie face ajutor`,
  hu: `a az egy és vagy de van volt lenni én te ő mi ti ők engem téged nekem neked mit ki melyik hogyan miért hol
    mikor mennyi igen nem nagyon jó köszönöm kérem szia jó reggelt napot val vel nak nek ban ben is ma holnap tegnap
    tudok tudsz akarok szeretnék kell segítség hogy`,
  fi: `ja tai mutta on ovat oli olla minä sinä hän me te he minua sinua minun sinun meidän mitä kuka mikä miten miksi
    missä milloin paljonko kyllä ei en et erittäin hyvin kiitos ole hyvä hei moi huomenta kanssa varten myös tänään
    huomenna eilen voin voitko haluan tarvitsen tehdä apua`,
  tr: `ve veya ama bir bu şu o ben sen biz siz onlar beni seni benim senin bizim ne kim hangi nasıl neden niçin nerede
    ne zaman kaç evet hayır değil çok iyi teşekkür ederim lütfen merhaba selam günaydın ile için de da mı mi mu mü
    bugün yarın dün istiyorum yapabilir yardım var yok`,
  id: `dan atau tapi tetapi adalah ini itu saya aku kamu anda dia kami kita mereka apa siapa mana bagaimana kenapa
    mengapa di ke dari kapan berapa ya tidak bukan nggak gak sangat baik terima kasih tolong halo selamat pagi dengan
    untuk juga hari sekarang besok kemarin bisa mau ingin butuh perlu punya ada membuat bantuan`,
  vi: `và hoặc nhưng là của có không tôi bạn anh chị em chúng ta họ gì ai nào thế sao tại đâu khi bao nhiêu vâng
    được rất tốt cảm ơn xin chào với cho trong này đó hôm nay ngày mai qua có thể muốn cần làm giúp`,
  tl: `ang ng mga sa at o pero ay ako ikaw ka siya kami tayo kayo sila ko mo niya namin natin ano sino alin paano
    bakit saan kailan magkano oo hindi po opo salamat kumusta magandang umaga gabi para rin din ngayon bukas kahapon
    puwede pwede gusto kailangan gawin tulong may wala`,
  sw: `na ya wa za la kwa ni si au lakini mimi wewe yeye sisi ninyi wao yangu yako yake yetu nini nani gani vipi
    kwanini wapi lini ngapi ndiyo hapana sana asante tafadhali habari jambo hujambo sijambo nzuri leo kesho jana
    naweza unaweza nataka ninahitaji kufanya msaada tena bado`,
  ha: `da ko amma ne ce na ni kai ke shi ita mu ku su ka ta ya za me wa wace wane yaya ina yaushe nawa eh a'a ba sosai
    gode sannu barka lafiya don domin a yau gobe jiya iya son bukata taimako kuma akwai babu`,
  yo: `àti tàbí ṣùgbọ́n ni jẹ́ mo mi o ó wa won wọn yín ẹ kí ta èwo báwo kílódé níbo nígbà èló bẹ́ẹ̀ni rárá kò ò
    púpọ̀ dáadáa ẹ ṣé ẹṣé ọ̀sán àárọ̀ alẹ́ pẹ̀lú fún sí ní lónìí ọ̀la àná lè fẹ́ nílò ṣe ìrànlọ́wọ́ náà yìí
    ati tabi sugbon je emi iwo awa won ki bawo nibo e se pupo daadaa pelu fun si ni loni ola ana le fe nilo kaaro
    kaasan`,
  // Twi (Asante and Akuapem spelling): pronouns, determiners, conjunctions, postpositions, question words, numbers,
  // everyday verbs and nouns, greetings; after J. E. Redden & N. Owusu, "Twi Basic Course" (Foreign Service
  // Institute, 1963, public domain) and the Twi Wikipedia's spelling (ɛ/ɔ, -foɔ).
  tw: `ne na anaa nanso yɛ wɔ me wo ɔno yɛn mo wɔn no saa ɛno hena deɛ dɛn adɛn ɛhe berɛ sɛn aane daabi ɛnyɛ paa
    medaase mepa kyɛw maakye maaha maadwo akwaaba ho te sɛ fi ɛnnɛ ɔkyena nnɛra metumi wobɛtumi mepɛ mehia boa mmoa
    deɛn ɛte pe se wo ho me din de ase akyi anim ntam hɔ efisɛ enti nso ansa sɛnea ɛna ɛnna bi biara
    nyinaa nea dee eyi ebi ara seesei daa kɛseɛ ketewa bone hwan ahe ɛhefa baako mmienu abiɛsa anan anum ɔha apem
    mpem kaa kae kɔ kɔɔ ba baa hunu nim pɛ hia tumi kyerɛ hwɛ frɛ gye nya tena firi ɛyɛ ɛwɔ ɛsɛ ɛsɛsɛ
    nnipa onipa ɔman aman kuro fie sika adwuma afe bere mmere asase nsuo asɛm nsɛm ɔhene aban abofra mmofra
    ɔbaa mmaa ɔbarima mmarima nkurɔfoɔ ɔmanfoɔ Nyankopɔn ɛberɛ nkorɔfoɔ`,
  // Ewe (standard orthography): pronouns, determiners, conjunctions, postpositions, question words, numbers,
  // everyday verbs and nouns, greetings; after S. W. Dzablu-Kumah, "Basic Ewe for Foreign Students", revised by
  // U. Claudi & J. A. Ossey (Universität zu Köln, 2006).
  ee: `kple alo gake nye le la me wò eya mí mia wo nye ƒe nuka ameka aleke nukatae afi ka ɣekaɣi nenie ɛ̃ ao o
    ŋutɔ akpe kakaka meɖe kuku ŋdi woezɔ fɔ ɖe na tso egbe etsɔ ate ŋu mele didim hiã wɔ kpekpeɖeŋu be si ŋkɔ
    miawo woawo yewo esia sia siawo ema aɖe aɖewo ame amewo nuwo eye hafi elabena eyata hã gɔ̃ dzi
    gbɔ ɖo gblɔ kpɔ dzo ɖu nya tsɔ xɔ dze fia nɔ fifia ɣesiaɣi nyuie gbã ɖeka eve etɔ̃ ene
    atɔ̃ dukɔ dɔ gã suku agbe mawu gbe ɖevi ŋutsu nyɔnu dziɖuɖu wole menye mega ɖeke siwo dometɔ`,
  // Ga: pronouns, determiners, conjunctions, postpositions, question words, numbers, everyday verbs and nouns,
  // greetings; after M. E. Kropp Dakubu, "Ga-English Dictionary with English-Ga Index" (Black Mask, Accra, 1999).
  gaa: `kɛ loo shi ji yɛ mi bo lɛ wɔ nyɛ amɛ mɛni namɔ te tɛŋŋ nɛgbɛ mɛɛ be ni hɛɛ dabi ojekoo oyiwaladɔŋŋ
    ofainɛ ŋmɛnɛ wɔsɛɛ miiyɛ fɛo oyɔɔ misumɔɔ gbɛi gbɛ ha tsɔɔ wiemɔ yelikɛbuamɔ hewɔ ko nɛɛ nɛkɛ nakai fɛɛ kome
    komɛi mɛi nii enɛ aloo akɛ ejaakɛ kɛkɛ agbɛnɛ kɛji kɛlɛ mli nɔ sɛɛ hiɛ shishi ŋɔɔ tee tsɔ fee wie
    kɛɛ sumɔ yoo nuu bi bii tsu baa yaa ekome enyɔ etɛ ejwɛ enumɔ ekpaa kpawo nyɔŋma afii gbi shia maŋ maŋtsɛ
    Nyɔŋmɔ shikpɔŋ nitsumɔ shika gbɔmɔ gbɔmɛi hewalɛ nibii jeŋ tsɛ nyɛmi ŋa ebaa ehe etee efee eyɛ ebi eye`,
  ig: `na ma mana bụ m mụ gị ya anyị unu ha nke ihe gịnị onye kedu ebee mgbe ole ee mba nnọọ daalụ biko ndewo ụtụtụ
    abalị maka n'ime taa echi ụnyaahụ nwere ike chọrọ achọrọ mee enyemaka kwa`,
  zu: `futhi noma kodwa yi ngi mina wena yena thina nina bona yami yakho yakhe yethu ini ubani yiphi kanjani kungani
    kuphi nini malini yebo cha kakhulu kahle ngiyabonga ngicela sawubona sanibonani unjani namuhla kusasa izolo
    ngingakwazi ngifuna ngidinga usizo`,
  so: `iyo ama laakiin waa ahaa aan anigu adiga isaga iyada annaga idinka iyaga kayga kaaga maxay yaa kee sidee
    maxaa xagee goorma imisa haa maya aad mahadsanid fadlan salaan subax wanaagsan la ku u ka maanta berri shalay
    karaa waxaan doonayaa baahanahay caawimaad`,
  af: `die 'n en of maar is was wees ek jy hy sy dit ons julle hulle my jou sy ons wat wie watter hoe hoekom waar
    wanneer hoeveel ja nee nie baie goed dankie asseblief hallo goeie môre met vir van na in op ook vandag gister kan
    wil het moet maak hulp`,
  ca: `el la els les un una i o però és són era ser estar jo tu ell ella nosaltres vosaltres ells em et es meu meva
    teu teva seu què qui quin com per què perquè on quan quant sí no molt bé gràcies si us plau hola bon dia amb per
    de del als també avui demà ahir puc pots vull necessito fer ajuda`,
  hr: `i u na s sa do se je su bio biti ja ti on ona mi vi oni mene meni tebe moj moja tvoj tvoja naš što tko koji
    kako zašto gdje kada koliko da ne nije vrlo jako dobro hvala molim bok dobar dan za od po također danas sutra
    jučer mogu možeš želim trebam imam pomoć`,
  sl: `in v na s z do se je so bil biti jaz ti on ona mi vi oni mene meni tebe moj moja tvoj tvoja naš kaj kdo kateri
    kako zakaj kje kdaj koliko da ne ni zelo dobro hvala prosim živjo dober dan za od po tudi danes jutri včeraj
    lahko morem hočem potrebujem imam pomoč`,
  lt: `ir ar bet yra buvo būti aš tu jis ji mes jūs jie mane tave mano tavo mūsų kas kuris kaip kodėl kur kada kiek
    taip ne nėra labai gerai ačiū prašau labas sveiki su už iš į per taip pat šiandien rytoj vakar galiu gali noriu
    reikia turiu pagalba`,
  lv: `un vai bet ir bija būt es tu viņš viņa mēs jūs viņi mani tevi mans mana tavs tava mūsu kas kurš kā kāpēc kur
    kad cik jā nē nav ļoti labi paldies lūdzu sveiki labdien ar par no uz arī šodien rīt vakar varu vari gribu vajag
    man palīdzība`,
  et: `ja või aga on oli olla mina ma sina sa tema meie teie nemad mind sind minu sinu meie mis kes milline kuidas
    miks kus millal kui palju jah ei väga hea hästi aitäh palun tere koos jaoks ka täna homme eile saan saad tahan
    vajan abi`,
  ru: `и в на с к по не это как что кто где когда почему зачем сколько да нет я ты он она мы вы они меня тебя мне
    тебе мой моя твой наш очень хорошо спасибо пожалуйста привет здравствуйте для из от у о также сегодня завтра вчера
    могу можешь хочу нужно нужна помощь есть был была`,
  uk: `і й в у на з до по не це як що хто де коли чому скільки так ні я ти він вона ми ви вони мене тебе мені тобі
    мій моя твій наш дуже добре дякую будь ласка привіт вітаю для від про також сьогодні завтра вчора можу можеш хочу
    потрібно потрібна допомога є був була чи`,
  bg: `и в на с към по не това как какво кой къде кога защо колко да не аз ти той тя ние вие те мен теб ми ти моят моя
    твоят наш много добре благодаря моля здравей здравейте за от у също днес утре вчера мога можеш искам трябва
    помощ е съм си`,
  sr: `и у на с са до се је су био бити ја ти он она ми ви они мене мени тебе мој моја твој наш шта ко који како зашто
    где када колико да не није веома добро хвала молим здраво за од по такође данас сутра јуче могу можеш желим треба
    помоћ`,
  be: `і ў на з да па не гэта як што хто дзе калі чаму колькі так не я ты ён яна мы вы яны мяне цябе мне табе мой мая
    твой наш вельмі добра дзякуй калі ласка прывітанне для ад пра таксама сёння заўтра учора магу хачу трэба дапамога`,
  kk: `және мен бен пен бірақ бұл ол не кім қайда қашан неге қанша иә жоқ мен сен біз сіз олар мені сені менің сенің
    біздің өте жақсы рахмет өтінемін сәлем сәлеметсіз бе үшін да де бүгін ертең кеше аламын керек көмек бар`,
  ar: `في من على إلى عن مع هذا هذه ذلك التي الذي هو هي أنا أنت نحن هم ما ماذا من أين متى كيف لماذا كم نعم لا ليس
    جدا شكرا من فضلك مرحبا السلام عليكم صباح الخير اليوم غدا أمس أستطيع يمكنك أريد أحتاج مساعدة هل`,
  fa: `و در به از با که این آن را برای است هست نیست من تو او ما شما آنها چه کی کجا کجاست چرا چطور چگونه چند بله نه
    خیلی خوب ممنون مرسی لطفا سلام امروز فردا دیروز می‌توانم میتوانم می‌خواهم میخواهم دارم کمک هم`,
  ur: `اور میں کی کا کے کو سے پر یہ وہ ہے ہیں تھا میں تم آپ ہم وہ کیا کون کہاں کب کیوں کیسے کتنا جی ہاں نہیں بہت
    اچھا شکریہ براہ کرم السلام علیکم آج کل سکتا سکتی چاہتا چاہتی چاہیے مدد`,
  hi: `और में की का के को से पर यह वह है हैं था मैं तुम आप हम वे क्या कौन कहाँ कब क्यों कैसे कितना हाँ नहीं बहुत
    अच्छा धन्यवाद शुक्रिया कृपया नमस्ते आज कल सकता सकती चाहता चाहती चाहिए मदद मुझे मेरा मेरी`,
  mr: `आणि मध्ये ची चा चे ला ने वर हा ही हे तो ती आहे आहेत होता मी तू तुम्ही आम्ही ते काय कोण कुठे केव्हा का कसे
    किती हो नाही खूप चांगले धन्यवाद कृपया नमस्कार आज उद्या काल शकतो शकते पाहिजे मदत मला माझा माझी`,
  ne: `र मा को का की ले बाट यो त्यो छ छन् थियो म तिमी तपाईं हामी उनीहरू के को कहाँ कहिले किन कसरी कति हो होइन
    धेरै राम्रो धन्यवाद कृपया नमस्ते आज भोलि हिजो सक्छु सक्नुहुन्छ चाहन्छु चाहिन्छ मद्दत मलाई मेरो`,
};
