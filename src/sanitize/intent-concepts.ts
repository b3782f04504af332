// Concepts the learned second opinion reads in any of the languages tool authors write in, beyond
// the rules' lexicons: consent, a past sign-up or contract, the user's report, a substitute, what is
// stale, what binds, what happens silently, a third party's interest, the user's refusal, a value
// demoted to a note. None of these is an attack and no rule fires on them; they are features, so
// that a priority claim stated calmly as a fact in Lithuanian weighs what the same claim weighs in
// English ("consent was given at registration, so nothing is confirmed"). Written in the reading's
// form (NFKC, lower case). A Latin, Cyrillic or Greek stem must start a word; scripts written
// without spaces, and those whose words take prefixes, match anywhere.

interface Words {
  /** Stems that must start a word. */
  readonly worded: readonly string[];
  /** Short words that must be whole words (`no`, `ne`, `nu`: as stems they start "number", "new"). */
  readonly whole?: readonly string[];
  /** Stems matched anywhere (Han, Kana, Hangul, Thai, Khmer, Burmese; Arabic-script and Indic words with clitics). */
  readonly anywhere: readonly string[];
}

function lexicon(words: Words): RegExp {
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alternatives = (list: readonly string[] = []): string => [...new Set(list)].map(escape).join('|');
  const parts = [`(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives(words.worded)})`];
  if (words.whole && words.whole.length > 0) parts.push(`(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives(words.whole)})(?![\\p{L}\\p{M}\\p{N}])`);
  if (words.anywhere.length > 0) parts.push(alternatives(words.anywhere));
  return new RegExp(parts.join('|'), 'u');
}

/** Consent, approval, permission, authorization. */
export const CONSENT = lexicon({
  worded: [
    'zgoda', 'zgody', 'zgodę', 'згода', 'згоду', 'згоди', 'consent', 'approval', 'approved', 'pre-approved', 'authoriz', 'authoris', 'permission', 'sign-off', 'zustimmung', 'einwilligung', 'einverständnis',
    'genehmig', 'consentement', 'approbation', 'autorisation', 'consentimiento', 'aprobación', 'aprobado', 'autorización', 'consentimento',
    'aprovação', 'aprovado', 'autorização', 'consenso', 'approvazion', 'autorizzazion', 'toestemming', 'goedkeuring', 'instemming', 'zatwierdz',
    'souhlas', 'schválen', 'súhlas', 'suglasnost', 'saglasnost', 'pristanak', 'odobren', 'soglasj', 'consimțământ', 'consimtamant', 'acordul', 'aprobare',
    'hozzájárul', 'beleegyez', 'jóváhagy', 'suostum', 'hyväksyn', 'nõusolek', 'nõusoleku', 'piekrišan', 'sutikim', 'samtycke', 'godkänn', 'samtykke',
    'godkend', 'godkjenn', 'samþykk', 'onay', 'izni', 'izin', 'rıza', 'razılıq', 'rozilik', 'ruxsat', 'persetujuan', 'kebenaran', 'keizinan', 'đồng ý',
    'chấp thuận', 'pahintulot', 'pagsang-ayon', 'idhini', 'ridhaa', 'ruhusa', 'yarda', 'amincewa', 'ìfọwọ́sí', 'imvume', 'cydsyniad', 'caniatâd', 'toiliú',
    'pëlqim', 'miratim', 'kunsens', 'baimen', 'onespen', 'consentiment', 'согласи', 'одобрен', 'разрешени', 'дозвол', 'схвален', 'согласност',
    'сагласност', 'одобрување', 'келісім', 'рұқсат', 'зөвшөөр', 'συναίνεσ', 'συγκατάθεσ', 'έγκρισ',
  ],
  anywhere: [
    'موافق', 'إذن', 'الإذن', 'הסכמ', 'אישור', 'رضایت', 'موافقت', 'اجازه', 'رضامندی', 'اجازت', 'सहमति', 'अनुमति', 'मंजूरी', 'संमती', 'परवानगी', 'সম্মতি',
    'অনুমতি', 'ஒப்புதல்', 'அனுமதி', 'సమ్మతి', 'అనుమతి', 'સંમતિ', 'મંજૂરી', 'ਸਹਿਮਤੀ', 'ਮਨਜ਼ੂਰੀ', 'කැමැත්ත', 'අනුමැති', 'ความยินยอม', 'ยินยอม', 'อนุมัติ',
    '同意', '批准', '授权', '授權', '许可', '許可', '承認', '承諾', '동의', '승인', '허가', 'ፈቃድ', 'ስምምነት', 'თანხმობ', 'ნებართვ', 'համաձայն', 'թույլտվ',
    'ការយល់ព្រម', 'អនុញ្ញាត', 'သဘောတူ', 'ခွင့်ပြု',
  ],
});

/** A sign-up, registration, contract, terms, onboarding or installation: where consent is said to have been given. */
export const SIGNED_ELSEWHERE = lexicon({
  worded: [
    'sign-up', 'signup', 'التسجيل في', 'عند التسجيل', 'sign up', 'registration', 'onboarding', 'enrol', 'contract', 'terms of service', 'terms of use', 'terms and conditions', 'master agreement',
    'framework agreement', 'subscription agreement', 'registrierung', 'anmeldung', 'vertrag', 'rahmenvertrag', 'nutzungsbedingungen', 'agb', 'inscription',
    'contrat', 'cgu', 'cgv', 'contrato', 'términos', 'cadastro', 'registo', 'termos', 'adesão', 'iscrizion',
    'registrazion', 'contratto', 'termini', 'registratie', 'aanmelding', 'overeenkomst', 'rejestracj', 'umow', 'umów', 'regulamin',
    'registrac', 'smlouv', 'zmluv', 'registráci', 'ugovor', 'registracij', 'pogodb', 'înregistr', 'termeni', 'regisztrác', 'szerződés', 
    'rekisteröi', 'sopimu', 'registreeri', 'leping', 'reģistrācij', 'līgum', 'noteikum', 'sutart', 'registruo', 'užsiregistr', 'registrering', 'avtal',
    'aftale', 'avtale', 'skráning', 'samning', 'kayıt', 'sözleşme', 'qeydiyyat', 'müqavilə', 'shartnoma', "ro'yxat",
    'pendaftaran', 'kontrak', 'đăng ký', 'hợp đồng', 'điều khoản', 'pagpaparehistro', 'kontrata', 'usajili', 'kujisajili', 'mkataba', 
    'rajista', 'yarjejeniya', 'ìforúkọsílẹ̀', 'àdéhùn', 'ukubhalisa', 'isivumelwano', 'registrasie', 'cofrestru', 'clárú', 'conradh',
    'regjistrim', 'kontrat', 'reġistrazzjoni', 'kuntratt', 'izen-emate', 'kontratu', 'rexistro', 'регистрац', 'договор', 
    'соглашени', 'реєстрац', 'угод', 'тіркел', 'бүртгэл', 'гэрээ', 'εγγραφ', 'σύμβασ', 
  ],
  anywhere: [
    'הרשמ', 'הרישום', 'חוזה', 'ثبت‌نام', 'ثبت نام', 'قرارداد', 'رجسٹریشن', 'معاہد', 'पंजीकरण',
    'रजिस्ट्रेशन', 'अनुबंध', 'नोंदणी', 'करार', 'নিবন্ধন', 'চুক্তি', 'பதிவு', 'ஒப்பந்த', 'నమోదు', 'ఒప్పంద', 'નોંધણી', 'કરાર', 'ਰਜਿਸਟ', 'ਇਕਰਾਰ', 'दर्ता',
    'सम्झौता', 'ලියාපදිංචි', 'ගිවිසුම', 'ลงทะเบียน', 'สมัคร', 'สัญญา', '注册', '註冊', '合同', '合約', '协议', '協議', '条款', '條款', '契約', '規約',
    '加入時', '導入時', '가입', '계약', '약관', 'რეგისტრაცი', 'ხელშეკრულებ', 'գրանցում', 'պայմանագ', 'ការចុះឈ្មោះ', 'កិច្ចសន្យា', 'မှတ်ပုံတင်', 'စာချုပ်', 'ምዝገባ', 'ውል',
  ],
});

/** What the user is told or shown: a summary, a report, a confirmation, the reply. */
export const REPORT = lexicon({
  worded: [
    'summary', 'report', 'informed', 'informing', 'inform the', 'inform them', 'confirmation', 'notif', 'tell', 'told', 'mention', 'shown', 'display', 'zusammenfassung', 'bericht', 'bestätigung', 'mitteil',
    'benachrichtig', 'erwähn', 'angezeigt', 'résumé', 'rapport', 'réponse', 'mentionn', 'affich', 'resumen', 'informe', 'confirmación', 'respuesta', 'notific',
    'mencion', 'resumo', 'relatório', 'confirmação', 'resposta', 'riepilog', 'sommario', 'rapporto', 'conferma', 'risposta', 'menzion', 'samenvatting',
    'bevestiging', 'antwoord', 'melding', 'vermeld', 'getoond', 'podsumowan', 'raport', 'potwierdzen', 'odpowied', 'powiadom', 'wspomin', 'shrnutí', 'zpráv',
    'potvrzen', 'oznámen', 'sažetak', 'izvješ', 'izvještaj', 'obavijest', 'povzetek', 'poročil', 'rezumat', 'răspuns', 'összefoglal', 'jelentés', 'visszaigazol',
    'értesít', 'yhteenveto', 'raportti', 'vahvistus', 'ilmoit', 'kokkuvõt', 'aruanne', 'kinnitus', 'teavita', 'kopsavilk', 'pārskat', 'apstiprināj', 'paziņo',
    'santrauk', 'ataskait', 'patvirtin', 'praneš', 'sammanfattning', 'bekräftelse', 'meddel', 'opsummering', 'oppsummering', 'bekræftelse', 'bekreftelse',
    'besked', 'samantekt', 'skýrsl', 'staðfesting', 'özet', 'rapor', 'bildir', 'xülasə', 'hesabat', 'ringkasan', 'laporan', 'konfirmasi', 'pemberitahuan',
    'diberitahu', 'makluman', 'tóm tắt', 'báo cáo', 'xác nhận', 'thông báo', 'buod', 'ulat', 'abiso', 'muhtasari', 'ripoti', 'uthibitisho', 'taarifa',
    'rahoto', 'sanarwa', 'àkópọ̀', 'ìròyìn', 'isifinyezo', 'umbiko', 'isaziso', 'opsomming', 'verslag', 'kennisgewing', 'crynodeb', 'adroddiad', 'achoimre',
    'tuarascáil', 'përmbledhje', 'njoftim', 'sommarju', 'laburpen', 'txosten', 'jakinarazpen', 'xulosa', 'hisobot', 'сводк', 'резюме', 'отчёт', 'отчет',
    'подтвержден', 'уведомл', 'сообщ', 'звіт', 'підтвердж', 'повідом', 'обобщени', 'извештај', 'известување', 'қорытынды', 'хабарла', 'хураангуй', 'тайлан',
    'σύνοψ', 'περίληψ', 'αναφορ', 'επιβεβαίωσ', 'ειδοποίησ',
  ],
  anywhere: [
    'ملخص', 'تقرير', 'تأكيد', 'إشعار', 'סיכום', 'דוח', 'דו"ח', 'הודעה', 'خلاصه', 'گزارش', 'تأیید', 'خلاصہ', 'رپورٹ', 'सारांश', 'रिपोर्ट', 'पुष्टि', 'सूचना', 'अहवाल',
    'সারাংশ', 'প্রতিবেদন', 'বিজ্ঞপ্তি', 'சுருக்க', 'அறிக்கை', 'அறிவிப்பு', 'సారాంశ', 'నివేదిక', 'નોંધ', 'સારાંશ', 'અહેવાલ', 'ਰਿਪੋਰਟ', 'ਸੂਚਨਾ', 'प्रतिवेदन', 'සාරාංශ',
    'වාර්තා', 'දැනුම්දී', 'สรุป', 'รายงาน', 'แจ้ง', '摘要', '总结', '總結', '报告', '報告', '告知', '要約', '報告', '요약', '보고', '알림', '통지', 'შეჯამებ',
    'ანგარიშ', 'შეტყობინებ', 'ամփոփ', 'հաշվետվ', 'ծանուց', 'សេចក្តីសង្ខេប', 'របាយការណ៍', 'အကျဉ်းချုပ်', 'အစီရင်ခံ', 'ማጠቃለያ', 'ሪፖርት', 'ማሳወቂያ',
  ],
});

/** Something put in place of something else: instead of, rather than, replaced by. */
export const INSTEAD = lexicon({
  worded: [
    'instead', 'in place of', 'namísto', 'rather than', 'replaced', 'substitut', 'swapped', 'mapped to', 'converted to', 'anstatt', 'statt', 'anstelle', 'ersetzt',
    'à la place', 'au lieu', 'remplac', 'en lugar de', 'en vez de', 'sustitu', 'reemplaz', 'em vez de', 'em lugar de', 'substituí', 'invece', 'al posto',
    'sostitu', 'in plaats van', 'vervangen', 'zamiast', 'zastępow', 'zastąpi', 'namísto', 'nahraz', 'umjesto', 'namesto', 'zamijen', 'în loc de',
    'înlocui', 'helyett', 'sijaan', 'korvat', 'asemel', 'vietā', 'vietoj', 'i stället', 'i stedet', 'í stað', 'yerine', 'əvəzinə', "o'rniga", 'thay vì', 'thay thế',
    'sebagai ganti', 'alih-alih', 'menggantikan', 'sa halip', 'badala ya', 'maimakon', 'dípò', 'esikhundleni', 'in plaas van', 'yn lle', 'in ionad',
    'në vend', 'minflok', 'ordez', 'en lugar', 'вместо', 'замест', 'замість', 'наместо', 'уместо', 'вместо', 'орнына', 'оронд', 'αντί', 'αντικαθ',
  ],
  anywhere: [
    'بدلا من', 'بدلاً من', 'بدل', 'במקום', 'به جای', 'بجای', 'کے بجائے', 'की जगह', 'के बजाय', 'ऐवजी', 'এর বদলে', 'পরিবর্তে', 'பதிலாக', 'బదులు', 'ને બદલે', 'ਦੀ ਬਜਾਏ',
    'को सट्टा', 'වෙනුවට', '代替', '而不是', '改为', '改為', '替换', '替換', '代わりに', '置き換', '대신', '대체', 'ნაცვლად', 'փոխարեն', 'ជំនួស', 'အစား', 'ፋንታ', 'ይልቅ',
  ],
});

/** Stale: retired, legacy, deprecated, obsolete, superseded, out of date. */
export const STALE = lexicon({
  worded: [
    'retired', 'legacy', 'deprecated', 'obsolete', 'outdated', 'out of date', 'superseded', 'stale', 'sunset', 'decommission', 'phased out', 'no longer valid',
    'no longer applies', 'veraltet', 'abgelöst', 'ausgemustert', 'obsolet', 'obsolète', 'périmé', 'dépassé', 'retiré', 'obsoleto', 'desactualizado', 'retirado',
    'descontinuado', 'obsoleta', 'desatualizad', 'dismess', 'superat', 'verouderd', 'uitgefaseerd', 'vervallen', 'przestarzał', 'wycofan', 'nieaktualn',
    'zastaral', 'vyřazen', 'neplatn', 'zastarjel', 'ukinut', 'zastarel', 'învechit', 'depășit', 'retras', 'elavult', 'kivezetett', 'vanhentun', 'poistettu käytöstä',
    'aegunud', 'novecojis', 'pasenęs', 'pasenus', 'föråldrad', 'utfasad', 'forældet', 'udfase', 'utdatert', 'utfas', 'úrelt', 'eskimiş', 'kullanımdan kaldırıl',
    'köhnəl', 'eskirgan', 'usang', 'tidak berlaku', 'lỗi thời', 'ngừng', 'luma na', 'zilizopitwa', 'imepitwa na wakati', 'tsohon', 'ti di àtijọ́', 'sezidala',
    'verouderd', 'uitgedien', 'hen ffasiwn', 'as dáta', 'i vjetëruar', 'skadut', 'zaharkitu', 'устарел', 'устаревш', 'выведен из', 'застарі', 'застарел', 'застарен',
    'ескірген', 'хуучирсан', 'παρωχημέν', 'ξεπερασμέν', 'καταργημέν',
  ],
  anywhere: [
    'قديم', 'متقادم', 'ملغى', 'منتهي', 'מיושן', 'הוצא משימוש', 'منسوخ', 'قدیمی', 'پرانا', 'अप्रचलित', 'पुराना', 'पुरानी', 'कालबाह्य', 'পুরোনো', 'অপ্রচলিত', 'காலாவதி',
    'పాతది', 'જૂનું', 'ਪੁਰਾਣ', 'पुरानो', 'යල් පැන', 'ล้าสมัย', 'เลิกใช้', '过时', '過時', '弃用', '棄用', '废弃', '廢棄', '停用', '旧版', '舊版', '廃止', '古い', '非推奨',
    '폐기', '구식', '사용 중단', 'მოძველებ', 'հնացած', 'ហួសសម័យ', 'ခေတ်နောက်ကျ', 'ያለፈበት',
  ],
});

/** What binds or settles it: binding, authoritative, decisive, governs, source of truth. */
export const BINDING = lexicon({
  worded: [
    'binding', 'authoritative', 'decisive', 'prevail', 'governs', 'source of truth', 'final say', 'takes effect', 'in effect', 'what counts', 'verbindlich',
    'maßgeblich', 'ausschlaggebend', 'entscheidend', 'fait foi', 'contraignant', 'prévaut', 'déterminant', 'vinculante', 'determinante', 'prevalece',
    'vincolante', 'prevale', 'bindend', 'doorslaggevend', 'leidend', 'wiążąc', 'rozstrzygając', 'obowiązując', 'závazn', 'rozhodující', 'obvezuj', 'mjerodavn',
    'odločiln', 'hotărâtor', 'irányadó', 'sitova', 'ratkaiseva', 'siduv', 'otsustav', 'saistoš', 'noteicoš', 
    'bindande', 'avgörande', 'bindende', 'afgørende', 'avgjørende', 'bindandi', 'bağlayıcı', 'geçerli olan', 'mengikat', 
    'ràng buộc', 'may bisa', 'inayoamua', 'bindend', 
    'vinculante', 'решающ', 'вирішальн', 'δεσμευτικ', 'καθοριστικ', 'υπερισχύ',
  ],
  anywhere: [
    'ملزم', 'حاسم', 'מחייב', 'קובע', 'تعیین‌کننده', 'बाध्यकारी', 'निर्णायक', 'बंधनकारक', 'બંધનકર્તા',
    'බැඳී', 'มีผลผูกพัน', 'ถือเป็นที่สุด', '有约束力', '有約束力', '为准', '為準', '拘束力', '優先され', '구속력', 'სავალდებულ', 'պարտադիր', 'ចងភ្ជាប់', 'အတည်',
    'አስገዳጅ',
  ],
});

/** Done without a word: silently, quietly, in the background, without notice. */
export const SILENTLY = lexicon({
  worded: [
    'silently', 'quietly', 'behind the scenes', 'in the background', 'without notice', 'without comment', 'unannounced', 'stillschweigend', 'im hintergrund',
    'kommentarlos', 'unbemerkt', 'silencieusement', 'en arrière-plan', 'discrètement', 'sans le signaler', 'silenciosamente', 'en segundo plano', 'sin avisar',
    'discretamente', 'em segundo plano', 'sem avisar', 'silenziosamente', 'in background', 'senza avvisare', 'stilletjes', 'op de achtergrond', 'ongemerkt',
    'po cichu', 'w tle', 'bez powiadomienia', 'potichu', 'na pozadí', 'bez upozornění', 'tiho', 'u pozadini', 'bez obavijesti', 'v ozadju', 'în tăcere',
    'în fundal', 'csendben', 'a háttérben', 'hiljaa', 'taustalla', 'vaikselt', 'taustal', 'klusi', 'fonā', 'tyliai', 'fone', 'tyst', 'i bakgrunden', 
    'i baggrunden', 'i bakgrunnen', 'í bakgrunni', 'sessizce', 'arka planda', 'səssizcə', 'jimgina', 'âm thầm', 'diam-diam', 'di latar belakang',
    'secara senyap', 'tahimik', 'kimyakimya', 'bila kutangaza', 'a asirce', 'ní ìkọ̀kọ̀', 'ngasese', 'stilletjies', 'yn dawel', 'go ciúin', 'në heshtje',
    'fis-skiet', 'isilean', 'молча', 'незаметно', 'в фоне', 'в фоновом', 'тихо', 'у фоні', 'непомітно', 'тивко', 'во позадина', 'у позадини', 'үнсіз', 'чимээгүй',
    'σιωπηλά', 'στο παρασκήνιο', 'αθόρυβα',
  ],
  anywhere: [
    'بصمت', 'في الخلفية', 'בשקט', 'ברקע', 'بی‌صدا', 'بی صدا', 'در پس‌زمینه', 'خاموشی سے', 'चुपचाप', 'पृष्ठभूमि', 'गुपचूप', 'নীরবে', 'அமைதியாக', 'నిశ్శబ్దంగా',
    'ચૂપચાપ', 'ਚੁੱਪਚਾਪ', 'නිහඬ', 'อย่างเงียบ', 'เบื้องหลัง', '静默', '悄悄', '后台', '後台', '默默', '黙って', 'バックグラウンド', 'こっそり', '조용히', '백그라운드', 'ჩუმად',
    'լուռ', 'ស្ងាត់ៗ', 'တိတ်တဆိတ်', 'በጸጥታ',
  ],
});

/** Someone else with an interest: the vendor, a partner, the merchant, a sponsor, the provider, the platform. */
export const THIRD_PARTY = lexicon({
  worded: [
    'vendor', 'partner', 'merchant', 'sponsor', 'provider', 'platform', 'affiliate', 'reseller', 'anbieter', 'händler', 'plattform', 'fournisseur', 'marchand',
    'commerçant', 'plateforme', 'proveedor', 'comerciante', 'socio', 'plataforma', 'fornecedor', 'lojista', 'parceiro', 'fornitore', 'esercente', 'piattaforma',
    'leverancier', 'aanbieder', 'handelaar', 'dostawc', 'sprzedawc', 'partnera', 'dodavatel', 'obchodník', 'poskytovatel', 'dobavljač', 'pružatelj', 'ponudnik',
    'furnizor', 'comerciant', 'platform', 'szolgáltató', 'kereskedő', 'partnere', 'toimittaja', 'kauppias', 'pakkuja', 'teenusepakkuja', 'piegādātāj',
    'tirgotāj', 'tiekėj', 'prekybinink', 'leverantör', 'handlare', 'leverandør', 'forhandler', 'söluaðil', 'tedarikçi', 'satıcı', 'sağlayıcı', 'təchizatçı',
    "yetkazib beruvchi", 'penyedia', 'pedagang', 'mitra', 'rakan kongsi', 'nhà cung cấp', 'đối tác', 'người bán', 'tagapagbigay', 'mtoa huduma', 'mfanyabiashara',
    'mshirika', 'mai bayarwa', 'olùpèsè', 'umhlinzeki', 'verskaffer', 'handelaar', 'darparwr', 'soláthraí', 'ofrues', 'fornitur', 'hornitzaile', 'provedor',
    'поставщик', 'продав', 'партн', 'платформ', 'провайдер', 'постачальник', 'продавец', 'снабдувач', 'добављач', 'жеткізуші', 'нийлүүлэгч', 'πάροχ',
    'προμηθευτ', 'έμπορ', 'συνεργάτ', 'χορηγ',
  ],
  anywhere: [
    'المورد', 'مزود', 'التاجر', 'الشريك', 'الراعي', 'ספק', 'סוחר', 'שותף', 'تامین‌کننده', 'تأمین‌کننده', 'فروشنده', 'شریک', 'فراہم کنندہ', 'विक्रेता', 'प्रदाता',
    'साझेदार', 'भागीदार', 'পার্টনার', 'বিক্রেতা', 'வழங்குநர்', 'విక్రేత', 'પ્રદાતા', 'ਪ੍ਰਦਾਤਾ', 'සැපයුම්කරු', 'ผู้ให้บริการ', 'ผู้ขาย', 'พันธมิตร', '供应商', '供應商', '商家',
    '合作伙伴', '合作夥伴', '赞助', '贊助', '提供者', '事業者', '加盟店', 'パートナー', 'ベンダー', 'スポンサー', '제공업체', '판매자', '파트너', '스폰서', 'მომწოდებ', 'մատակարար',
    'អ្នកផ្គត់ផ្គង់', 'ပံ့ပိုးသူ', 'አቅራቢ',
  ],
});

/** The user saying no: cancel, withdraw, refuse, reject, decline, revoke, opt out. */
export const REFUSAL = lexicon({
  worded: [
    'cancel', 'withdraw', 'refus', 'reject', 'declin', 'revok', 'opt out', 'opt-out', 'opts out', 'says no', 'storn', 'widerruf', 'ablehn', 'abbrech', 'kündig',
    'annul', 'rétract', 'rejet', 'cancela', 'anula', 'retira', 'rechaz', 'desist', 'recusa', 'annull', 'ritir', 'rifiut', 'revoc', 'annuleer', 'intrek', 'weiger',
    'anulow', 'wycof', 'odrzuc', 'odmow', 'zruš', 'odvol', 'odmít', 'otkaz', 'povuč', 'odustan', 'prekliči', 'zavrn', 'anulare', 'retrage', 'refuz', 'lemond',
    'visszavon', 'elutasít', 'peruu', 'hylkää', 'tühist', 'loobu', 'keeldu', 'atcel', 'atsak', 'atšauk', 'atsisak', 'avbryt', 'avböj', 'annuller',
    'afvis', 'avvis', 'hætta við', 'iptal', 'vazgeç', 'reddet', 'ləğv', 'bekor', 'batal', 'menolak', 'tarik balik', 'hủy', 'từ chối', 'rút lại',
    'kanselahin', 'tanggihan', 'kughairi', 'kufuta', 'anakataa', 'kukataa', 'soke', 'ƙi', 'fagilee', 'kọ̀', 'khansela', 'nqaba', 'kanselleer', 'weier', 'canslo',
    'gwrthod', 'cealaigh', 'diúltaigh', 'anulo', 'refuzo', 'ikkanċella', 'jirrifjuta', 'ezeztatu', 'baztertu', 'отмен', 'отказ', 'отозв', 'скасув', 'відмов',
    'відкликан', 'откаж', 'откажу', 'бас тарт', 'цуцла', 'ακύρωσ', 'ακυρώ', 'αρν', 'ανάκλησ',
  ],
  anywhere: [
    'إلغاء', 'يلغي', 'رفض', 'ביטול', 'לבטל', 'מבטל', 'סירוב', 'לסרב', 'لغو', 'انصراف', 'رد کند', 'منسوخ کر', 'इनकार', 'रद्द', 'मना', 'वापस ले', 'রদ্দ', 'বাতিল',
    'প্রত্যাখ্যান', 'ரத்து', 'రద్దు', 'తిరస్కర', 'રદ', 'ਰੱਦ', 'अस्वीकार', 'අවලංගු', 'ยกเลิก', 'ปฏิเสธ', '取消', '撤回', '拒绝', '拒絕', 'キャンセル', '取り消', '断る',
    '拒否', '撤回', '취소', '철회', '거절', '거부', 'გაუქმ', 'უარ', 'չեղարկ', 'մերժ', 'បោះបង់', 'បដិសេធ', 'ပယ်ဖျက်', 'ငြင်း', 'መሰረዝ', 'እምቢ',
  ],
});

/** A value demoted to a note: only a label, a remark, a minimum, a draft, a working value, informative. */
export const DEMOTED_VALUE = lexicon({
  worded: [
    'label', 'a note', 'as a note', 'remark', 'annotation', 'minimum', 'draft', 'working value', 'placeholder', 'informative', 'cosmetic', 'for display',
    'vermerk', 'notiz', 'hinweis', 'bemerkung', 'mindest', 'entwurf', 'étiquette', 'remarque', 'annotation', 'brouillon', 'indicatif', 'etiqueta', 'anotación',
    'observación', 'mínimo', 'borrador', 'informativ', 'rótulo', 'anotação', 'observação', 'rascunho', 'etichetta', 'annotazion', 'nota', 'minimo', 'bozza',
    'etiket', 'opmerking', 'notitie', 'minimum', 'concept', 'etykiet', 'notatk', 'minimaln', 'roboczy', 'poznámk', 'štítek', 'minimáln', 'pracovní',
    'oznak', 'napomen', 'bilješk', 'opomb', 'etichet', 'notă', 'minimă', 'minimul', 'címke', 'megjegyzés', 'minimum', 'tájékoztató', 'tunniste', 'huomautus', 'merkintä',
    'vähimmäis', 'silt', 'märkus', 'märge', 'miinimum', 'birk', 'piezīm', 'minimāl', 'etiket', 'pastab', 'minimal', 'etikett', 'anteckning', 'anmärkning',
    'bemærkning', 'merknad', 'athugasemd', 'lágmark', 'not olarak', 'etiket', 'açıklama olarak', 'asgari', 'qeyd', 'izoh', 'catatan', 
    'label', 'minimal', 'nhãn', 'ghi chú', 'tối thiểu', 'tala', 'pinakamababa', 'lebo', 'maelezo', 'kiwango cha chini', 'alama', 'bayani', 'àkọsílẹ̀', 'ilebula',
    'inothi', 'etiket', 'nota', 'nodyn', 'nóta', 'shënim', 'etiketë', 'nota', 'oharra', 'etiketa', 'пометк', 'заметк', 'примечани', 'метк', 'минимальн', 'черновик',
    'позначк', 'примітк', 'мінімальн', 'белешк', 'напомена', 'белгі', 'ескерту', 'тэмдэглэл', 'σημείωσ', 'ετικέτα', 'ελάχιστ',
  ],
  anywhere: [
    'ملاحظة', 'تسمية', 'الحد الأدنى', 'מסומן', 'הערה', 'תווית', 'מינימום', 'یادداشت', 'برچسب', 'حداقل', 'نوٹ', 'لیبل', 'कम से कम', 'टिप्पणी', 'लेबल', 'न्यूनतम', 'নোট',
    'সর্বনিম্ন', 'குறிப்பு', 'குறைந்தபட்ச', 'గమనిక', 'కనీస', 'નોંધ', 'ન્યૂનતમ', 'ਨੋਟ', 'ਘੱਟੋ-ਘੱਟ', 'සටහන', 'අවම', 'หมายเหตุ', 'ป้ายกํากับ', 'ขั้นต่ํา', '备注', '備註', '标签', '標籤',
    '最低', '草稿', 'メモ', 'ラベル', '備考', '참고', '메모', '라벨', '최소', 'შენიშვნ', 'იარლიყ', 'მინიმალ', 'նշում', 'պիտակ', 'նվազագույն', 'កំណត់ចំណាំ', 'မှတ်ချက်', 'ማስታወሻ',
  ],
});

/** The person the model works for, by any name a service gives them: user, customer, patient, member, traveller. */
export const PERSON = lexicon({
  worded: [
    'user', 'customer', 'patient', 'member', 'buyer', 'shopper', 'traveller', 'traveler', 'guest', 'student', 'citizen', 'employee', 'subscriber',
    'account holder', 'cardholder', 'applicant', 'kunde', 'kundin', 'reisende', 'mitglied', 'käufer', 'bürger', 'mitarbeiter', 'usager', 'acheteur',
    'voyageur', 'membre', 'abonné', 'citoyen', 'comprador', 'viajero', 'miembro', 'socio', 'ciudadano', 'pasajero', 'viajante', 'membro', 'cidadão', 'tutor',
    'acquirente', 'viaggiatore', 'cittadino', 'paziente', 'klant', 'koper', 'reiziger', 'lid', 'burger', 'klient', 'pacjent', 'kupując', 'podróżn', 'obywatel',
    'zákazník', 'pacient', 'cestující', 'občan', 'kupac', 'putnik', 'građan', 'stranka', 'strank', 'kupec', 'potnik', 'client', 'pacient', 'cumpărător',
    'călător', 'cetățean', 'ügyfél', 'vásárló', 'utas', 'páciens', 'beteg', 'állampolgár', 'asiakas', 'potilas', 'matkustaja', 'kansalainen', 'klient',
    'klienditeenindus', 'patsient', 'reisija', 'kodanik', 'klients', 'pacients', 'pasažier', 'pilsoni', 'klientas', 'paciento', 'pacient', 'keleiv', 'piliet',
    'kund', 'patient', 'resenär', 'medborgar', 'borger', 'pasient', 'reisende', 'viðskiptavin', 'sjúkling', 'notand', 'müşteri', 'yolcu', 'vatandaş',
    'üye', 'istifadəçi', 'müştəri', 'foydalanuvchi', 'mijoz', 'pelanggan', 'pasien', 'penumpang', 'warga', 'anggota', 'pembeli', 'pelancong', 'khách hàng',
    'bệnh nhân', 'hành khách', 'người mua', 'công dân', 'thành viên', 'kustomer', 'pasyente', 'mamamayan', 'mteja', 'wateja', 'mgonjwa', 'abiria', 'raia',
    'mnunuzi', 'mai amfani', 'abokin ciniki', 'majiyyaci', 'olùmúlò', 'oníbàárà', 'aláìsàn', 'umsebenzisi', 'ikhasimende', 'isiguli', 'kliënt', 'pasiënt',
    'defnyddiwr', 'cwsmer', 'claf', 'úsáideoir', 'custaiméir', 'othar', 'përdorues', 'klient', 'pacient', 'utent', 'klijent', 'erabiltzaile', 'bezero', 'gaixo',
    'usuario', 'cliente', 'пользовател', 'клиент', 'пациент', 'покупател', 'пассажир', 'гражданин', 'абонент', 'користувач', 'клієнт', 'пацієнт', 'покупець',
    'громадян', 'потребител', 'корисник', 'купувач', 'пайдаланушы', 'клиент', 'хэрэглэгч', 'үйлчлүүлэгч', 'χρήστ', 'πελάτ', 'ασθεν', 'επιβάτ', 'πολίτ',
  ],
  anywhere: [
    'المستخدم', 'العميل', 'المريض', 'الزبون', 'المسافر', 'משתמש', 'הלקוח', 'לקוח', 'המטופל', 'מטופל', 'کاربر', 'مشتری', 'بیمار', 'مسافر', 'صارف', 'گاہک', 'مریض',
    'उपयोगकर्ता', 'यूज़र', 'ग्राहक', 'मरीज', 'मरीज़', 'यात्री', 'नागरिक', 'वापरकर्ता', 'रुग्ण', 'प्रयोगकर्ता', 'ব্যবহারকারী', 'গ্রাহক', 'রোগী', 'பயனர்', 'வாடிக்கையாளர்',
    'நோயாளி', 'వినియోగదారు', 'కస్టమర్', 'రోగి', 'વપરાશકર્તા', 'ગ્રાહક', 'દર્દી', 'ਵਰਤੋਂਕਾਰ', 'ਯੂਜ਼ਰ', 'ਗਾਹਕ', 'ਮਰੀਜ਼', 'පරිශීලක', 'පාරිභෝගික', 'රෝගී', 'ผู้ใช้', 'ลูกค้า',
    'ผู้ป่วย', 'ผู้โดยสาร', '用户', '用戶', '使用者', '客户', '客戶', '顾客', '顧客', '患者', '乘客', '会员', '會員', 'ユーザー', '利用者', 'お客様', '顧客', '患者',
    '会員', '申請者', '사용자', '이용자', '고객', '환자', '회원', '승객', 'მომხმარებ', 'კლიენტ', 'პაციენტ', 'օգտատեր', 'օգտվող', 'հաճախորդ', 'հիվանդ', 'អ្នកប្រើ',
    'អតិថិជន', 'អ្នកជំងឺ', 'အသုံးပြုသူ', 'ဖောက်သည်', 'လူနာ', 'ተጠቃሚ', 'ደንበኛ', 'ታካሚ',
  ],
});

/** A negation: not, no, never, without; in a pair with another concept it says what is not done ("not reported to the user"). */
/**
 * The other roles a service gives the person it acts for: guest, passenger, recipient, the insured,
 * payer, applicant, participant, a pupil's guardian. Left out where the word also names a parent
 * folder or an older version (Elternverzeichnis, родительский, vanhemmat), a cloud's tenant
 * (locataire, inquilino, 租户), a verb of making sure (assicurati, assurée), a payment or a sale
 * (pembayaran, penjualan), a host (المضيف), sharing (المشاركة), a product (Rider, Seller Hub), a
 * hotel (khách sạn, mehmonxona), an insured thing (pojištění, sigortalı araç) or a population count
 * (inwonertal, asukasluku).
 * Read as the person the model works for in the model's features only: a description that names
 * one of these and no other party is not judged for it, as "every recipient of the original message
 * receives your reply" and "the name of each passenger must match their passport" are what mail and
 * booking tools say.
 */
export const PERSON_BY_ROLE = lexicon({
  worded: [
    'guest', 'passenger', 'recipient', 'policyholder', 'insured', 'payer', 'respondent', 'attendee', 'participant',
    'huésped', 'destinatari', 'residente', 'pagador', 'vendedor', 'solicitante', 'participante',
    'hóspede', 'passageiro', 'pasaxeiro', 'morador', 'destinataire', 'payeur', 'vendeur',
    'demandeur', 'bénéficiaire', 'titulaire', 'ospiti', 'passegger', 'venditor', 'richiedent', 'partecipant', 'titolare', 
    'fahrgast', 'fahrgäste', 'passagier', 'empfänger', 'bewohner', 'mieter', 'verkäufer', 'antragsteller', 'teilnehmer', 'ontvanger',
    'bewoner', 'verzekerde', 'verkoper', 'aanvrager', 'deelnemer', 'gäst', 'passagerare', 'mottagare', 'hyresgäst', 'försäkrad', 'säljare',
    'deltagare', 'gæst', 'gjest', 'passager', 'passasjer', 'modtager', 'mottaker', 'sælger', 'selger', 
    'farþeg', 'viðtakand', 'leigjand', 'greiðand', 'seljand', 'umsækjand', 'þátttakand', 'gość', 'gościa', 'pasażer', 'odbiorc',     'sprzedawc', 'wnioskodawc', 'uczestni', 'příjemc', 'príjemc',     'plátc', 'platiteľ', 'prodejc', 'predajc', 'žadatel', 'žiadateľ', 'oaspe', 'pasager', 'destinatar', 'locatar', 'plătitor',
    'vânzător', 'solicitant', 'címzett', 'igénylő', 'résztvevő', 'vastaanottaja',     'maksaja', 'myyjä', 'hakija', 'osallistuja', 'külali', 'üürnik', 'maksja', 'müüja', 'taotleja',
    'osaleja', 'lapsevanem', 'viesis', 'viesi', 'saņēmēj', 'īrniek', 'maksātāj', 'pārdevēj', 'pieteicēj', 'dalībniek', 
    'svečias', 'sveči', 'gavėj', 'mokėtoj', 'pardavėj', 'pirkėj', 'pareiškėj', 'dalyvi', 'tėva', 'tėvų', 'vartotoj',
    'naudotoj', 'prejemnik', 'stanoval', 'plačnik', 'kupci', 'kupce', 'kupca', 'udeleženc', 
    'primatelj', 'primalac', 'osiguranik', 'platitelj', 'prodavač', 'podnositelj', 'sudionik', 'učesnik', 'mysafir', 'pasagjer',
    'marrës', 'qiramarrës', 'shitës', 'pjesëmarrës', 'gonbidat', 'bidaiari', 'hartzaile', 'maizter', 'saltzaile', 'eskatzaile', 'herritar',
    'passasier', 'versekerde', 'aansoeker', 'alıcı', 'satıcı', 'katılımcı', 'qonaq', 'sərnişin',
    'kirayəçi', 'sığortalı', 'iştirakçı', 'valideyn', "yo'lovchi", 'yoʻlovchi', 'ijarachi', 'sotuvchi', 'ishtirokchi', 'ota-ona',     'penghuni', 'tertanggung', 'pemohon', 'peserta', 'orang tua', 'ibu bapa', 'người nhận', 'cư dân', 'người thuê',
    'người bán', 'phụ huynh', 'bisita', 'pasahero', 'nangungupahan', 'nagbebenta', 'kalahok', 'magulang', 'mgeni', 'wageni',
    'mpokeaji', 'mkazi', 'wakazi', 'mpangaji', 'mlipaji', 'muuzaji', 'mwombaji', 'mshiriki', 'mzazi', 'wazazi', 'baƙo', 'fasinja', 'mai karɓa', 'mazauni',
    'mai haya', 'mai biya', 'iyaye', 'àlejò', 'olùgbà', 'olùgbé', 'ayálégbé', 'olùsanwó', 'olùtajà', 'òbí', 'isivakashi', 'umgibeli', 'umamukeli',
    'isakhamuzi', 'umthengisi', 'umzali', 'abazali', 'martida', 'rakaab', 'qaataha', 'kireyste', 'iibiyaha', 'waalid', 'isticmaale', 'гость', 'гостя', 'гостю', 'гостям', 'получател',
    'жилец', 'плательщик', 'продавц', 'продавец', 'заявител', 'участник', 'гість', 'гостей', 'пасажир',
    'одержувач', 'отримувач', 'мешкан', 'платник', 'продавц', 'заявник', 'учасник', 'пътник', 'платец', 'продавач', 'патник',
    'примач', 'жолаушы', 'алушы', 'сатушы', 'қатысушы', 'ата-ана', 'επισκέπτ', 'παραλήπτ', 'ενοικιαστ', 'ασφαλισμέν', 'πωλητ', 'συμμετέχ',
    
    "l'assuré", 'asiguratul', 'zavarovanec', 'prosilec', 'el asegurado', 'la asegurada', 'o segurado', 'a segurada',
    'apdrošinātais', 'apdraustasis', 'kindlustatu', 'płatnik', 'residents', 'the seller',
  ],
  // Short words that start others (Turkish veli, velit; Indonesian pembayar, pembayaran; Slovenian gosti, gostitelj).
  whole: ['tamu', 'pembayar', 'penjual', 'gosti', 'gostu', 'gosta'],
  anywhere: [
    'الضيف', 'الراكب', 'المستلم', 'المقيم', 'المؤمن له', 'البائع', 'مقدم الطلب', 'ولي الأمر', 'المواطن', 'أولياء الأمور',
    'נוסע', 'נמען', 'שוכר', 'מבוטח', 'משתתף', 'הורים', 'مهمان', 'فروشنده',
    'متقاضی', 'شرکت‌کننده', 'والدین', 'مہمان', 'کرایہ دار', 'درخواست گزار', 'अतिथि', 'मेहमान', 'प्राप्तकर्ता', 'निवासी', 'किरायेदार', 'बीमाधारक', 'विक्रेता',
    'आवेदक', 'प्रतिभागी', 'अभिभावक', 'माता-पिता', 'भाडेकरू', 'अतिथी', 'অতিথি', 'যাত্রী', 'প্রাপক', 'বাসিন্দা', 'ভাড়াটে', 'বিক্রেতা', 'আবেদনকারী',
    'অভিভাবক', 'விருந்தினர்', 'பயணி', 'பெறுநர்', 'குடியிருப்பாளர்', 'வாடகைதாரர்', 'விற்பனையாளர்', 'விண்ணப்பதாரர்', 'பெற்றோர்', 'అతిథి', 'ప్రయాణికు', 'గ్రహీత',
    'నివాసి', 'అద్దెదారు', 'విక్రేత', 'దరఖాస్తుదారు', 'తల్లిదండ్రు', 'แขก', 'ผู้อยู่อาศัย', 'ผู้เอาประกัน', 'ผู้ขาย', 'ผู้สมัคร', 'ผู้ปกครอง',
    'ผู้เข้าร่วม', 'ភ្ញៀវ', 'អ្នកដំណើរ', 'អ្នកទទួល', 'អ្នកជួល', 'អ្នកលក់', 'ឪពុកម្តាយ', 'មាតាបិតា', '客人', '旅客', '住客', '收件人', '收货人', '收貨人', '居民',
    '租客', '投保人', '被保险人', '被保險人', '付款人', '卖家', '賣家', '买家', '買家', '申请人', '申請人', '参与者', '參與者', '家长', '家長',
    '宿泊者', '受取人', '住民', '入居者', '借主', '被保険者', '契約者', '出品者', '申込者', '参加者', '保護者', '손님', '투숙객', '수령인', '수신자',
    '주민', '입주자', '세입자', '피보험자', '계약자', '판매자', '신청자', '참가자', '학부모', '보호자', 'სტუმარ', 'მგზავრ', 'მიმღებ', 'მცხოვრებ', 
    'დაზღვეულ', 'გამყიდველ', 'განმცხადებ', 'მონაწილე', 'ուղեւոր', 'ստացող', 'բնակիչ', 'ապահովագրված', 'վաճառող', 'դիմորդ',
    'մասնակից', 'ተሳፋሪ', 'ተቀባይ', 'ነዋሪ', 'ተከራይ', 'ሻጭ', 'አመልካች', 'ወላጅ',
  ],
});

export const NEGATION = lexicon({
  worded: [
    'never', 'without', 'nicht', 'jamais', 'nunca', 'senza', 'nooit', 'zonder', 'nigdy', 'nikdy', 'nikad', 'niciodată', 'nélkül', 'ilman', 'koskaan', 'kunagi',
    'nekad', 'niekada', 'aldrig', 'ikkje', 'aldrei', 'değil', 'olmadan', 'deyil', 'tidak', 'bukan', 'tanpa', 'tidak pernah', 'không', 'chẳng', 'hindi',
    'walang', 'hapana', 'láìsí', 'akukho', 'ngaphandle', 'sonder', 'mingħajr', 'никогда', 'ніколи', 'никога', 'ешқашан', 'χωρίς',
  ],
  whole: [
    'not', 'no', 'kein', 'nie', 'ohne', 'ne', 'pas', 'sans', 'non', 'sin', 'não', 'nem', 'sem', 'niet', 'geen', 'bez', 'není', 'nije', 'ni', 'nu', 'fără',
    'soha', 'ei', 'eikä', 'ilma', 'nėra', 'inte', 'ej', 'utan', 'ikke', 'aldri', 'uden', 'uten', 'ekki', 'án', 'yok', 'asla', 'heç', 'emas', 'hech', 'chưa',
    'bila', 'bai', 'kò', 'nid', 'heb', 'ní', 'gan', 'nuk', 'mhux', 'gabe', 'не', 'нет', 'без', 'ні', 'нема', 'емес', 'жоқ', 'үгүй', 'биш', 'δεν', 'μην', 'ποτέ',
    'όχι',
  ],
  anywhere: [
    'ليس', 'لن ', 'بدون', 'دون ', 'לא ', 'אין', 'ללא', 'בלי', 'نمی', 'هرگز', 'نہیں', 'بغیر', 'नहीं', 'बिना', 'कभी नहीं', 'नाही', 'होइन', 'ছাড়া', 'இல்லை',
    'இல்லாமல்', 'లేదు', 'లేకుండా', 'નથી', 'વગર', 'ਨਹੀਂ', 'ਬਿਨਾਂ', 'නැත', 'නොමැතිව', 'ไม่', 'โดยไม่', '没有', '沒有', '无需', '無需', '从不', '從不', 'ない', 'ません', 'せず',
    'なし', '않', '없이', '없', '안 ', 'არ ', 'გარეშე', 'չի', 'առանց', 'មិន', 'ដោយគ្មាន', 'ሳይ', 'አይ', ' لا ', ' نه ', "n't", '不会', '不得', '不要', '不能', '不再', '不需', '不必',
  ],
});
