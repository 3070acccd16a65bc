/**
 * The mails' words in the six locales. They live on the server (not in src/i18n/locales, which the SPA
 * fetches), so the shopper's app does not grow with them. `{name}` marks a value filled in.
 */
import type { Locale } from '../../domain/locale';
import { cycle as deDeCycle } from '../../i18n/locales/de-de.json';
import { cycle as enEnCycle } from '../../i18n/locales/en-en.json';
import { cycle as enGbCycle } from '../../i18n/locales/en-gb.json';
import { cycle as esEsCycle } from '../../i18n/locales/es-es.json';
import { cycle as nlNlCycle } from '../../i18n/locales/nl-nl.json';
import { cycle as ptPtCycle } from '../../i18n/locales/pt-pt.json';
import { RENEWAL_TEXTS, type RenewalTexts } from './renewal-texts';

export interface MailTexts {
  /** BCP 47 tag: the mail's lang attribute and the Intl formats of its money and dates. */
  tag: string;
  brand: string;
  footer: string;
  receipt: {
    subject: string;
    upsellSubject: string;
    heading: string;
    upsellHeading: string;
    intro: string;
    upsellIntro: string;
    order: string;
    invoice: string;
    item: string;
    total: string;
    deadline: string;
    promo: string;
    pay: string;
    payHint: string;
    extraConnections: string;
    forService: string;
  };
  serviceActive: {
    subject: string;
    heading: string;
    intro: string;
    open: string;
    openHint: string;
    credentials: string;
    username: string;
    password: string;
    host: string;
    keepSafe: string;
  };
  signInLink: {
    subject: string;
    heading: string;
    intro: string;
    open: string;
    openHint: string;
    /** A new account's first mail: the link proves the address, and only then does its password sign in. */
    signUpSubject: string;
    signUpIntro: string;
    /** A sign-up with an address that has an account already: the owner is told, and offered a sign-in. */
    signUpTakenSubject: string;
    signUpTakenIntro: string;
  };
  /** The one reminder for an unpaid order, and the pages of its opt-out link. */
  recovery: {
    subject: string;
    heading: string;
    intro: string;
    resume: string;
    resumeHint: string;
    optOut: string;
    optOutHint: string;
    optedOutTitle: string;
    optedOutText: string;
  };
  /** Renewal notices of a service that falls due, and the page of their opt-out link (renewal-texts.ts). */
  renewal: RenewalTexts;
  /** What every opt-out page shares: a link that is not ours, and the way back. */
  optOutPage: {
    invalidTitle: string;
    invalidText: string;
    backToCheckout: string;
  };
  options: { extraConnection: string; proxyProtection: string };
  /** Billing cycles, as the app words them (src/i18n/locales/<code>.json, key cycle). */
  cycle: typeof enEnCycle;
}

const EN: Omit<MailTexts, 'tag' | 'cycle' | 'renewal'> = {
  brand: 'TV Checkout',
  footer: 'You are receiving this e-mail because this address was given for an order at TV Checkout. If that was not you, you can ignore it.',
  receipt: {
    subject: 'Your order {order}: invoice {invoice}',
    upsellSubject: 'Your invoice {invoice} for extra connections',
    heading: 'Thank you for your order',
    upsellHeading: 'Your invoice for extra connections',
    intro: 'We have received your order. It becomes active as soon as your payment arrives.',
    upsellIntro: 'The extra connections are added to your service as soon as your payment arrives.',
    order: 'Order',
    invoice: 'Invoice',
    item: 'Item',
    total: 'Total',
    deadline: 'Pay before',
    promo: 'Discount code',
    pay: 'Finish your payment',
    payHint: 'The link opens your waiting page in the browser you ordered with: pay there, or choose another payment method.',
    extraConnections: 'Extra connections: {count}',
    forService: '{name} (service {id})',
  },
  serviceActive: {
    subject: 'Your service is active',
    heading: 'Your service is active',
    intro: 'Thank you, your payment has arrived. Your service is ready to use.',
    open: 'See your login details',
    openHint: 'The link signs you in on any device and shows your login details. It works once, within 24 hours; after that, ask for a sign-in link on the checkout\'s login page.',
    credentials: 'Your login details',
    username: 'Username',
    password: 'Password',
    host: 'Server host',
    keepSafe: 'Keep these details safe and do not share them.',
  },
  signInLink: {
    subject: 'Your sign-in link for TV Checkout',
    heading: 'Sign in to TV Checkout',
    intro: 'Someone asked for a link to sign in to TV Checkout with this address. If that was you, use the button below.',
    open: 'Sign in',
    openHint: 'The link works once, within 15 minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without it.',
    signUpSubject: 'Confirm your address for TV Checkout',
    signUpIntro: 'Welcome! To finish creating your account, confirm that this address is yours with the button below. Until then, your password does not sign you in.',
    signUpTakenSubject: 'Someone tried to create an account with your address',
    signUpTakenIntro: 'Someone tried to create a TV Checkout account with this address, which already has one. If that was you, sign in with the button below instead. If not, ignore this e-mail: nothing was changed.',
  },
  recovery: {
    subject: 'You have not finished your order {order}',
    heading: 'Your order is waiting for you',
    intro: 'You started an order at TV Checkout but have not paid for it yet. It is kept for you until the deadline below.',
    resume: 'Finish your order',
    resumeHint: 'The link opens this order\'s payment page in any browser, with its countdown; there you can pay or choose another payment method. It works once.',
    optOut: 'Stop reminders for this order',
    optOutHint: 'This is the only reminder we send for this order. You can also stop reminders with this link:',
    optedOutTitle: 'No more reminders',
    optedOutText: 'You will not get any more reminders for order {order}. The order itself is unchanged: you can still pay it before its deadline.',
  },
  optOutPage: {
    invalidTitle: 'This link cannot be used',
    invalidText: 'The link was cut short or changed on its way. Links work only exactly as they were sent.',
    backToCheckout: 'Go to the checkout',
  },
  options: { extraConnection: 'Extra connection', proxyProtection: 'Proxy protection' },
};

export const MAIL_TEXTS: Record<Locale, MailTexts> = {
  'en-en': { tag: 'en', ...EN, renewal: RENEWAL_TEXTS['en-en'], cycle: enEnCycle },
  'en-gb': {
    tag: 'en-GB',
    ...EN,
    serviceActive: { ...EN.serviceActive, keepSafe: 'Please keep these details safe and do not share them.' },
    renewal: RENEWAL_TEXTS['en-gb'],
    cycle: enGbCycle,
  },
  'de-de': {
    tag: 'de-DE',
    brand: 'TV Checkout',
    footer: 'Sie erhalten diese E-Mail, weil diese Adresse bei einer Bestellung bei TV Checkout angegeben wurde. Falls Sie das nicht waren, können Sie sie ignorieren.',
    receipt: {
      subject: 'Ihre Bestellung {order}: Rechnung {invoice}',
      upsellSubject: 'Ihre Rechnung {invoice} für zusätzliche Verbindungen',
      heading: 'Vielen Dank für Ihre Bestellung',
      upsellHeading: 'Ihre Rechnung für zusätzliche Verbindungen',
      intro: 'Wir haben Ihre Bestellung erhalten. Sie wird aktiv, sobald Ihre Zahlung eingegangen ist.',
      upsellIntro: 'Die zusätzlichen Verbindungen werden Ihrem Dienst hinzugefügt, sobald Ihre Zahlung eingegangen ist.',
      order: 'Bestellung',
      invoice: 'Rechnung',
      item: 'Artikel',
      total: 'Gesamtbetrag',
      deadline: 'Zahlbar bis',
      promo: 'Rabattcode',
      pay: 'Zahlung abschließen',
      payHint: 'Der Link öffnet Ihre Warteseite in dem Browser, mit dem Sie bestellt haben: Dort können Sie bezahlen oder eine andere Zahlungsart wählen.',
      extraConnections: 'Zusätzliche Verbindungen: {count}',
      forService: '{name} (Dienst {id})',
    },
    serviceActive: {
      subject: 'Ihr Dienst ist aktiv',
      heading: 'Ihr Dienst ist aktiv',
      intro: 'Vielen Dank, Ihre Zahlung ist eingegangen. Ihr Dienst ist jetzt einsatzbereit.',
      open: 'Zugangsdaten ansehen',
      openHint: 'Der Link meldet Sie auf jedem Gerät an und zeigt Ihre Zugangsdaten. Er funktioniert einmal und nur innerhalb von 24 Stunden; danach können Sie auf der Anmeldeseite des Checkouts einen neuen Anmeldelink anfordern.',
      credentials: 'Ihre Zugangsdaten',
      username: 'Benutzername',
      password: 'Passwort',
      host: 'Server-Host',
      keepSafe: 'Bewahren Sie diese Daten sicher auf und geben Sie sie nicht weiter.',
    },
    signInLink: {
      subject: 'Ihr Anmeldelink für TV Checkout',
      heading: 'Bei TV Checkout anmelden',
      intro: 'Jemand hat mit dieser Adresse einen Link zur Anmeldung bei TV Checkout angefordert. Wenn Sie das waren, verwenden Sie die Schaltfläche unten.',
      open: 'Anmelden',
      openHint: 'Der Link funktioniert einmal und nur innerhalb von 15 Minuten. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail: Ohne den Link kann sich niemand anmelden.',
      signUpSubject: 'Bestätigen Sie Ihre Adresse für TV Checkout',
      signUpIntro: 'Willkommen! Um Ihr Konto fertig einzurichten, bestätigen Sie mit der Schaltfläche unten, dass diese Adresse Ihnen gehört. Bis dahin meldet Ihr Passwort Sie nicht an.',
      signUpTakenSubject: 'Jemand wollte mit Ihrer Adresse ein Konto anlegen',
      signUpTakenIntro: 'Jemand wollte mit dieser Adresse ein Konto bei TV Checkout anlegen, für die es bereits ein Konto gibt. Wenn Sie das waren, melden Sie sich stattdessen mit der Schaltfläche unten an. Wenn nicht, ignorieren Sie diese E-Mail: Es wurde nichts geändert.',
    },
    recovery: {
      subject: 'Sie haben Ihre Bestellung {order} noch nicht abgeschlossen',
      heading: 'Ihre Bestellung wartet auf Sie',
      intro: 'Sie haben bei TV Checkout eine Bestellung begonnen, aber noch nicht bezahlt. Sie bleibt bis zur unten genannten Frist für Sie reserviert.',
      resume: 'Bestellung abschließen',
      resumeHint: 'Der Link öffnet die Zahlungsseite dieser Bestellung in jedem Browser, mit ihrem Countdown; dort können Sie bezahlen oder eine andere Zahlungsart wählen. Er funktioniert einmal.',
      optOut: 'Keine Erinnerungen mehr zu dieser Bestellung',
      optOutHint: 'Dies ist die einzige Erinnerung, die wir zu dieser Bestellung senden. Mit diesem Link können Sie Erinnerungen abbestellen:',
      optedOutTitle: 'Keine weiteren Erinnerungen',
      optedOutText: 'Sie erhalten keine Erinnerungen mehr zu Bestellung {order}. Die Bestellung selbst bleibt unverändert: Sie können sie bis zur Frist noch bezahlen.',
    },
    optOutPage: {
      invalidTitle: 'Dieser Link kann nicht verwendet werden',
      invalidText: 'Der Link wurde unterwegs gekürzt oder verändert. Links funktionieren nur genau so, wie sie gesendet wurden.',
      backToCheckout: 'Zum Checkout',
    },
    options: { extraConnection: 'Zusätzliche Verbindung', proxyProtection: 'Proxy-Schutz' },
    renewal: RENEWAL_TEXTS['de-de'],
    cycle: deDeCycle,
  },
  'es-es': {
    tag: 'es-ES',
    brand: 'TV Checkout',
    footer: 'Recibes este correo porque esta dirección se indicó en un pedido en TV Checkout. Si no fuiste tú, puedes ignorarlo.',
    receipt: {
      subject: 'Tu pedido {order}: factura {invoice}',
      upsellSubject: 'Tu factura {invoice} de conexiones adicionales',
      heading: 'Gracias por tu pedido',
      upsellHeading: 'Tu factura de conexiones adicionales',
      intro: 'Hemos recibido tu pedido. Se activará en cuanto recibamos tu pago.',
      upsellIntro: 'Las conexiones adicionales se añadirán a tu servicio en cuanto recibamos tu pago.',
      order: 'Pedido',
      invoice: 'Factura',
      item: 'Producto',
      total: 'Total',
      deadline: 'Paga antes del',
      promo: 'Código de descuento',
      pay: 'Completar el pago',
      payHint: 'El enlace abre tu página de espera en el navegador con el que hiciste el pedido: allí puedes pagar o elegir otro método de pago.',
      extraConnections: 'Conexiones adicionales: {count}',
      forService: '{name} (servicio {id})',
    },
    serviceActive: {
      subject: 'Tu servicio está activo',
      heading: 'Tu servicio está activo',
      intro: 'Gracias, hemos recibido tu pago. Tu servicio ya está listo para usar.',
      open: 'Ver tus datos de acceso',
      openHint: 'El enlace inicia tu sesión en cualquier dispositivo y muestra tus datos de acceso. Funciona una sola vez y durante 24 horas; después, pide un enlace de acceso en la página de inicio de sesión del checkout.',
      credentials: 'Tus datos de acceso',
      username: 'Usuario',
      password: 'Contraseña',
      host: 'Servidor',
      keepSafe: 'Guarda estos datos en un lugar seguro y no los compartas.',
    },
    signInLink: {
      subject: 'Tu enlace de acceso a TV Checkout',
      heading: 'Inicia sesión en TV Checkout',
      intro: 'Alguien ha pedido un enlace para iniciar sesión en TV Checkout con esta dirección. Si fuiste tú, usa el botón de abajo.',
      open: 'Iniciar sesión',
      openHint: 'El enlace funciona una sola vez y durante 15 minutos. Si no lo pediste, ignora este correo: nadie puede iniciar sesión sin él.',
      signUpSubject: 'Confirma tu dirección para TV Checkout',
      signUpIntro: '¡Te damos la bienvenida! Para terminar de crear tu cuenta, confirma con el botón de abajo que esta dirección es tuya. Hasta entonces, tu contraseña no te da acceso.',
      signUpTakenSubject: 'Alguien ha intentado crear una cuenta con tu dirección',
      signUpTakenIntro: 'Alguien ha intentado crear una cuenta de TV Checkout con esta dirección, que ya tiene una. Si fuiste tú, inicia sesión con el botón de abajo. Si no, ignora este correo: no se ha cambiado nada.',
    },
    recovery: {
      subject: 'No has terminado tu pedido {order}',
      heading: 'Tu pedido te está esperando',
      intro: 'Empezaste un pedido en TV Checkout pero aún no lo has pagado. Lo guardamos para ti hasta la fecha límite indicada abajo.',
      resume: 'Terminar tu pedido',
      resumeHint: 'El enlace abre la página de pago de este pedido en cualquier navegador, con su cuenta atrás; allí puedes pagar o elegir otro método de pago. Funciona una sola vez.',
      optOut: 'No recibir más recordatorios de este pedido',
      optOutHint: 'Este es el único recordatorio que enviamos sobre este pedido. También puedes dejar de recibirlos con este enlace:',
      optedOutTitle: 'No más recordatorios',
      optedOutText: 'No recibirás más recordatorios del pedido {order}. El pedido no cambia: aún puedes pagarlo antes de la fecha límite.',
    },
    optOutPage: {
      invalidTitle: 'Este enlace no se puede usar',
      invalidText: 'El enlace se cortó o se modificó por el camino. Los enlaces solo funcionan tal como se enviaron.',
      backToCheckout: 'Ir al checkout',
    },
    options: { extraConnection: 'Conexión adicional', proxyProtection: 'Protección proxy' },
    renewal: RENEWAL_TEXTS['es-es'],
    cycle: esEsCycle,
  },
  'nl-nl': {
    tag: 'nl-NL',
    brand: 'TV Checkout',
    footer: 'Je ontvangt deze e-mail omdat dit adres is opgegeven bij een bestelling bij TV Checkout. Was jij dat niet, dan kun je deze e-mail negeren.',
    receipt: {
      subject: 'Je bestelling {order}: factuur {invoice}',
      upsellSubject: 'Je factuur {invoice} voor extra verbindingen',
      heading: 'Bedankt voor je bestelling',
      upsellHeading: 'Je factuur voor extra verbindingen',
      intro: 'We hebben je bestelling ontvangen. Ze wordt actief zodra je betaling binnen is.',
      upsellIntro: 'De extra verbindingen worden aan je dienst toegevoegd zodra je betaling binnen is.',
      order: 'Bestelling',
      invoice: 'Factuur',
      item: 'Product',
      total: 'Totaal',
      deadline: 'Betaal vóór',
      promo: 'Kortingscode',
      pay: 'Betaling afronden',
      payHint: 'De link opent je wachtpagina in de browser waarmee je hebt besteld: daar kun je betalen of een andere betaalmethode kiezen.',
      extraConnections: 'Extra verbindingen: {count}',
      forService: '{name} (dienst {id})',
    },
    serviceActive: {
      subject: 'Je dienst is actief',
      heading: 'Je dienst is actief',
      intro: 'Bedankt, je betaling is binnen. Je dienst is klaar voor gebruik.',
      open: 'Bekijk je inloggegevens',
      openHint: 'Met de link log je op elk apparaat in en zie je je inloggegevens. Hij werkt één keer, binnen 24 uur; daarna kun je op de inlogpagina van de checkout een nieuwe inloglink aanvragen.',
      credentials: 'Je inloggegevens',
      username: 'Gebruikersnaam',
      password: 'Wachtwoord',
      host: 'Serverhost',
      keepSafe: 'Bewaar deze gegevens goed en deel ze met niemand.',
    },
    signInLink: {
      subject: 'Je inloglink voor TV Checkout',
      heading: 'Inloggen bij TV Checkout',
      intro: 'Iemand heeft met dit adres een link aangevraagd om in te loggen bij TV Checkout. Was jij dat, gebruik dan de knop hieronder.',
      open: 'Inloggen',
      openHint: 'De link werkt één keer, binnen 15 minuten. Heb je hem niet aangevraagd, negeer deze e-mail dan: zonder de link kan niemand inloggen.',
      signUpSubject: 'Bevestig je adres voor TV Checkout',
      signUpIntro: 'Welkom! Bevestig met de knop hieronder dat dit adres van jou is om je account af te maken. Tot die tijd kun je niet met je wachtwoord inloggen.',
      signUpTakenSubject: 'Iemand probeerde een account aan te maken met jouw adres',
      signUpTakenIntro: 'Iemand probeerde een account bij TV Checkout aan te maken met dit adres, waarvoor al een account bestaat. Was jij dat, log dan in met de knop hieronder. Zo niet, negeer deze e-mail dan: er is niets veranderd.',
    },
    recovery: {
      subject: 'Je hebt je bestelling {order} nog niet afgerond',
      heading: 'Je bestelling wacht op je',
      intro: 'Je bent een bestelling bij TV Checkout begonnen, maar hebt nog niet betaald. We bewaren hem voor je tot de deadline hieronder.',
      resume: 'Bestelling afronden',
      resumeHint: 'De link opent de betaalpagina van deze bestelling in elke browser, met de aftelling; daar kun je betalen of een andere betaalmethode kiezen. Hij werkt één keer.',
      optOut: 'Geen herinneringen meer voor deze bestelling',
      optOutHint: 'Dit is de enige herinnering die we voor deze bestelling sturen. Met deze link zet je herinneringen uit:',
      optedOutTitle: 'Geen herinneringen meer',
      optedOutText: 'Je krijgt geen herinneringen meer voor bestelling {order}. De bestelling zelf is niet veranderd: je kunt hem nog betalen vóór de deadline.',
    },
    optOutPage: {
      invalidTitle: 'Deze link kan niet worden gebruikt',
      invalidText: 'De link is onderweg ingekort of veranderd. Links werken alleen precies zoals ze zijn verstuurd.',
      backToCheckout: 'Naar de checkout',
    },
    options: { extraConnection: 'Extra verbinding', proxyProtection: 'Proxybescherming' },
    renewal: RENEWAL_TEXTS['nl-nl'],
    cycle: nlNlCycle,
  },
  'pt-pt': {
    tag: 'pt-PT',
    brand: 'TV Checkout',
    footer: 'Recebe este e-mail porque este endereço foi indicado numa encomenda na TV Checkout. Se não fez esta encomenda, pode ignorar este e-mail.',
    receipt: {
      subject: 'A sua encomenda {order}: fatura {invoice}',
      upsellSubject: 'A sua fatura {invoice} de ligações adicionais',
      heading: 'Obrigado pela sua encomenda',
      upsellHeading: 'A sua fatura de ligações adicionais',
      intro: 'Recebemos a sua encomenda. Fica ativa assim que o seu pagamento for recebido.',
      upsellIntro: 'As ligações adicionais são acrescentadas ao seu serviço assim que o seu pagamento for recebido.',
      order: 'Encomenda',
      invoice: 'Fatura',
      item: 'Artigo',
      total: 'Total',
      deadline: 'Pague até',
      promo: 'Código de desconto',
      pay: 'Concluir o pagamento',
      payHint: 'A ligação abre a sua página de espera no navegador com que fez a encomenda: aí pode pagar ou escolher outro método de pagamento.',
      extraConnections: 'Ligações adicionais: {count}',
      forService: '{name} (serviço {id})',
    },
    serviceActive: {
      subject: 'O seu serviço está ativo',
      heading: 'O seu serviço está ativo',
      intro: 'Obrigado, o seu pagamento foi recebido. O seu serviço está pronto a usar.',
      open: 'Ver os seus dados de acesso',
      openHint: 'A ligação inicia sessão em qualquer dispositivo e mostra os seus dados de acesso. Funciona uma única vez, nas 24 horas seguintes; depois disso, peça uma ligação de acesso na página de início de sessão do checkout.',
      credentials: 'Os seus dados de acesso',
      username: 'Nome de utilizador',
      password: 'Palavra-passe',
      host: 'Servidor',
      keepSafe: 'Guarde estes dados em segurança e não os partilhe.',
    },
    signInLink: {
      subject: 'A sua ligação de acesso à TV Checkout',
      heading: 'Iniciar sessão na TV Checkout',
      intro: 'Alguém pediu uma ligação para iniciar sessão na TV Checkout com este endereço. Se foi o próprio, utilize o botão abaixo.',
      open: 'Iniciar sessão',
      openHint: 'A ligação funciona uma única vez, durante 15 minutos. Se não a pediu, ignore este e-mail: ninguém consegue iniciar sessão sem ela.',
      signUpSubject: 'Confirme o seu endereço para a TV Checkout',
      signUpIntro: 'Bem-vindo! Para concluir a criação da sua conta, confirme que este endereço é seu com o botão abaixo. Até lá, a sua palavra-passe não inicia sessão.',
      signUpTakenSubject: 'Alguém tentou criar uma conta com o seu endereço',
      signUpTakenIntro: 'Alguém tentou criar uma conta na TV Checkout com este endereço, que já tem uma. Se foi o próprio, inicie sessão com o botão abaixo. Se não, ignore este e-mail: nada foi alterado.',
    },
    recovery: {
      subject: 'Ainda não concluiu a sua encomenda {order}',
      heading: 'A sua encomenda está à sua espera',
      intro: 'Começou uma encomenda na TV Checkout, mas ainda não a pagou. Guardamo-la para si até ao prazo indicado abaixo.',
      resume: 'Concluir a encomenda',
      resumeHint: 'A ligação abre a página de pagamento desta encomenda em qualquer navegador, com a contagem decrescente; aí pode pagar ou escolher outro método de pagamento. Funciona uma única vez.',
      optOut: 'Não receber mais lembretes desta encomenda',
      optOutHint: 'Este é o único lembrete que enviamos sobre esta encomenda. Também pode deixar de os receber com esta ligação:',
      optedOutTitle: 'Sem mais lembretes',
      optedOutText: 'Não vai receber mais lembretes da encomenda {order}. A encomenda em si não mudou: ainda a pode pagar antes do prazo.',
    },
    optOutPage: {
      invalidTitle: 'Esta ligação não pode ser usada',
      invalidText: 'A ligação foi cortada ou alterada pelo caminho. As ligações só funcionam exatamente como foram enviadas.',
      backToCheckout: 'Ir para o checkout',
    },
    options: { extraConnection: 'Ligação adicional', proxyProtection: 'Proteção proxy' },
    renewal: RENEWAL_TEXTS['pt-pt'],
    cycle: ptPtCycle,
  },
};

/** A text with its `{name}` places filled. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
