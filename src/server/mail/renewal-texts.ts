/**
 * The renewal notices' words in the six locales (texts.ts puts them under `renewal`). `{service}` is the plan's name,
 * `{date}` a date written out in the locale's format (the due date, or the day the service is suspended or ends),
 * `{days}` how long the renewal link works.
 */
import type { Locale } from '../../domain/locale';
import type { RenewalStage } from './outbox';

/** What one notice says first: its subject, heading and opening lines. */
export interface RenewalStageTexts {
  subject: string;
  heading: string;
  intro: string;
}

export interface RenewalTexts {
  stages: Record<RenewalStage, RenewalStageTexts>;
  plan: string;
  dueDate: string;
  renewedUntil: string;
  renew: string;
  renewHint: string;
  /** A terminated service is not renewed: it is ordered anew on the checkout's first page. */
  orderAgain: string;
  orderAgainHint: string;
  optOut: string;
  optOutHint: string;
  optedOutTitle: string;
  optedOutText: string;
}

const EN: RenewalTexts = {
  stages: {
    invoice: {
      subject: 'Your {service} plan is due for renewal on {date}',
      heading: 'Time to renew',
      intro: 'The invoice for your next period is ready. Renew before {date} and keep watching without a break; your login details stay the same.',
    },
    'due-soon': {
      subject: 'Your {service} plan is due for renewal tomorrow',
      heading: 'Your plan is due tomorrow',
      intro: 'Your plan runs out tomorrow, {date}, and its renewal is not paid yet. Renew today and keep watching without a break.',
    },
    due: {
      subject: 'Your {service} plan is due for renewal today',
      heading: 'Your plan is due today',
      intro: 'Your plan runs out today and its renewal is not paid yet. Renew now: if the invoice is still unpaid on {date}, the service is suspended.',
    },
    suspended: {
      subject: 'Your {service} plan is suspended',
      heading: 'Your service is suspended',
      intro: 'We have not received the payment for your renewal, so your service is suspended. Renew now and it is back at once, with the same login details. If the invoice is still unpaid on {date}, the service ends for good.',
    },
    terminated: {
      subject: 'Your {service} plan has ended',
      heading: 'Your service has ended',
      intro: 'The renewal was not paid, so your service has ended and its invoice is cancelled. It can no longer be renewed, but you can order a new plan whenever you like.',
    },
  },
  plan: 'Plan',
  dueDate: 'Due date',
  renewedUntil: 'Renewed until',
  renew: 'Renew now',
  renewHint: 'The link signs you in on any device and opens the renewal page, where you choose how to pay. It works once, within {days} days; after that, ask for a sign-in link on the checkout\'s login page.',
  orderAgain: 'Order a new plan',
  orderAgainHint: 'The link opens the checkout, where you choose a plan and pay as before.',
  optOut: 'Stop renewal reminders for this plan',
  optOutHint: 'We send a few reminders around a plan\'s due date. To stop them for this plan, use this link:',
  optedOutTitle: 'No more renewal reminders',
  optedOutText: 'You will not get any more renewal reminders for {service}. The plan itself is unchanged: you can still renew it on the checkout.',
};

export const RENEWAL_TEXTS: Record<Locale, RenewalTexts> = {
  'en-en': EN,
  'en-gb': EN,
  'de-de': {
    stages: {
      invoice: {
        subject: 'Ihr Abo „{service}“ ist am {date} zur Verlängerung fällig',
        heading: 'Zeit für die Verlängerung',
        intro: 'Die Rechnung für Ihren nächsten Zeitraum liegt bereit. Verlängern Sie vor dem {date}, dann schauen Sie ohne Unterbrechung weiter; Ihre Zugangsdaten bleiben gleich.',
      },
      'due-soon': {
        subject: 'Ihr Abo „{service}“ ist morgen zur Verlängerung fällig',
        heading: 'Ihr Abo ist morgen fällig',
        intro: 'Ihr Abo läuft morgen, am {date}, ab, und die Verlängerung ist noch nicht bezahlt. Verlängern Sie heute, dann schauen Sie ohne Unterbrechung weiter.',
      },
      due: {
        subject: 'Ihr Abo „{service}“ ist heute zur Verlängerung fällig',
        heading: 'Ihr Abo ist heute fällig',
        intro: 'Ihr Abo läuft heute ab, und die Verlängerung ist noch nicht bezahlt. Verlängern Sie jetzt: Ist die Rechnung am {date} noch offen, wird der Dienst gesperrt.',
      },
      suspended: {
        subject: 'Ihr Abo „{service}“ ist gesperrt',
        heading: 'Ihr Dienst ist gesperrt',
        intro: 'Wir haben die Zahlung für Ihre Verlängerung nicht erhalten, deshalb ist Ihr Dienst gesperrt. Verlängern Sie jetzt, dann ist er sofort wieder aktiv, mit denselben Zugangsdaten. Ist die Rechnung am {date} noch offen, wird der Dienst endgültig beendet.',
      },
      terminated: {
        subject: 'Ihr Abo „{service}“ ist beendet',
        heading: 'Ihr Dienst ist beendet',
        intro: 'Die Verlängerung wurde nicht bezahlt, deshalb ist Ihr Dienst beendet und die Rechnung storniert. Er kann nicht mehr verlängert werden, aber Sie können jederzeit ein neues Abo bestellen.',
      },
    },
    plan: 'Abo',
    dueDate: 'Fällig am',
    renewedUntil: 'Verlängert bis',
    renew: 'Jetzt verlängern',
    renewHint: 'Der Link meldet Sie auf jedem Gerät an und öffnet die Verlängerungsseite, auf der Sie die Zahlungsart wählen. Er funktioniert einmal und nur innerhalb von {days} Tagen; danach können Sie auf der Anmeldeseite des Checkouts einen neuen Anmeldelink anfordern.',
    orderAgain: 'Neues Abo bestellen',
    orderAgainHint: 'Der Link öffnet den Checkout, wo Sie ein Abo wählen und wie gewohnt bezahlen.',
    optOut: 'Keine Verlängerungserinnerungen mehr zu diesem Abo',
    optOutHint: 'Rund um das Fälligkeitsdatum eines Abos erinnern wir Sie einige Male. Mit diesem Link bestellen Sie diese Erinnerungen für dieses Abo ab:',
    optedOutTitle: 'Keine Verlängerungserinnerungen mehr',
    optedOutText: 'Sie erhalten keine Verlängerungserinnerungen mehr zu {service}. Das Abo selbst bleibt unverändert: Sie können es weiterhin im Checkout verlängern.',
  },
  'es-es': {
    stages: {
      invoice: {
        subject: 'Tu plan «{service}» vence el {date}',
        heading: 'Es hora de renovar',
        intro: 'La factura de tu próximo periodo ya está lista. Renueva antes del {date} y sigue viendo sin interrupciones; tus datos de acceso no cambian.',
      },
      'due-soon': {
        subject: 'Tu plan «{service}» vence mañana',
        heading: 'Tu plan vence mañana',
        intro: 'Tu plan vence mañana, {date}, y la renovación aún no está pagada. Renueva hoy y sigue viendo sin interrupciones.',
      },
      due: {
        subject: 'Tu plan «{service}» vence hoy',
        heading: 'Tu plan vence hoy',
        intro: 'Tu plan vence hoy y la renovación aún no está pagada. Renueva ahora: si la factura sigue sin pagar el {date}, el servicio se suspenderá.',
      },
      suspended: {
        subject: 'Tu plan «{service}» está suspendido',
        heading: 'Tu servicio está suspendido',
        intro: 'No hemos recibido el pago de tu renovación, así que tu servicio está suspendido. Renueva ahora y se reactivará al momento, con los mismos datos de acceso. Si la factura sigue sin pagar el {date}, el servicio se dará de baja definitivamente.',
      },
      terminated: {
        subject: 'Tu plan «{service}» ha finalizado',
        heading: 'Tu servicio ha finalizado',
        intro: 'La renovación no se pagó, así que tu servicio ha finalizado y su factura se ha anulado. Ya no se puede renovar, pero puedes contratar un plan nuevo cuando quieras.',
      },
    },
    plan: 'Plan',
    dueDate: 'Fecha de vencimiento',
    renewedUntil: 'Renovado hasta',
    renew: 'Renovar ahora',
    renewHint: 'El enlace inicia tu sesión en cualquier dispositivo y abre la página de renovación, donde eliges cómo pagar. Funciona una sola vez y durante {days} días; después, pide un enlace de acceso en la página de inicio de sesión del checkout.',
    orderAgain: 'Contratar un plan nuevo',
    orderAgainHint: 'El enlace abre el checkout, donde eliges un plan y pagas como siempre.',
    optOut: 'No recibir más recordatorios de renovación de este plan',
    optOutHint: 'Te enviamos algunos recordatorios en torno al vencimiento de un plan. Para dejar de recibirlos para este plan, usa este enlace:',
    optedOutTitle: 'No más recordatorios de renovación',
    optedOutText: 'No recibirás más recordatorios de renovación de {service}. El plan no cambia: aún puedes renovarlo en el checkout.',
  },
  'nl-nl': {
    stages: {
      invoice: {
        subject: 'Je abonnement ‘{service}’ moet op {date} worden verlengd',
        heading: 'Tijd om te verlengen',
        intro: 'De factuur voor je volgende periode staat klaar. Verleng vóór {date} en kijk zonder onderbreking verder; je inloggegevens blijven hetzelfde.',
      },
      'due-soon': {
        subject: 'Je abonnement ‘{service}’ loopt morgen af',
        heading: 'Je abonnement loopt morgen af',
        intro: 'Je abonnement loopt morgen, {date}, af en de verlenging is nog niet betaald. Verleng vandaag en kijk zonder onderbreking verder.',
      },
      due: {
        subject: 'Je abonnement ‘{service}’ loopt vandaag af',
        heading: 'Je abonnement loopt vandaag af',
        intro: 'Je abonnement loopt vandaag af en de verlenging is nog niet betaald. Verleng nu: is de factuur op {date} nog niet betaald, dan wordt de dienst opgeschort.',
      },
      suspended: {
        subject: 'Je abonnement ‘{service}’ is opgeschort',
        heading: 'Je dienst is opgeschort',
        intro: 'We hebben de betaling voor je verlenging niet ontvangen, daarom is je dienst opgeschort. Verleng nu en hij is meteen weer actief, met dezelfde inloggegevens. Is de factuur op {date} nog niet betaald, dan wordt de dienst definitief beëindigd.',
      },
      terminated: {
        subject: 'Je abonnement ‘{service}’ is beëindigd',
        heading: 'Je dienst is beëindigd',
        intro: 'De verlenging is niet betaald, daarom is je dienst beëindigd en de factuur geannuleerd. Hij kan niet meer worden verlengd, maar je kunt altijd een nieuw abonnement bestellen.',
      },
    },
    plan: 'Abonnement',
    dueDate: 'Vervaldatum',
    renewedUntil: 'Verlengd tot',
    renew: 'Nu verlengen',
    renewHint: 'Met de link log je op elk apparaat in en open je de verlengpagina, waar je kiest hoe je betaalt. Hij werkt één keer, binnen {days} dagen; daarna kun je op de inlogpagina van de checkout een nieuwe inloglink aanvragen.',
    orderAgain: 'Nieuw abonnement bestellen',
    orderAgainHint: 'De link opent de checkout, waar je een abonnement kiest en betaalt zoals je gewend bent.',
    optOut: 'Geen verlengherinneringen meer voor dit abonnement',
    optOutHint: 'Rond de vervaldatum van een abonnement sturen we een paar herinneringen. Met deze link zet je ze voor dit abonnement uit:',
    optedOutTitle: 'Geen verlengherinneringen meer',
    optedOutText: 'Je krijgt geen verlengherinneringen meer voor {service}. Het abonnement zelf is niet veranderd: je kunt het nog steeds verlengen via de checkout.',
  },
  'pt-pt': {
    stages: {
      invoice: {
        subject: 'O seu plano «{service}» vence a {date}',
        heading: 'Está na hora de renovar',
        intro: 'A fatura do seu próximo período já está disponível. Renove antes de {date} e continue a ver sem interrupções; os seus dados de acesso mantêm-se.',
      },
      'due-soon': {
        subject: 'O seu plano «{service}» vence amanhã',
        heading: 'O seu plano vence amanhã',
        intro: 'O seu plano vence amanhã, {date}, e a renovação ainda não foi paga. Renove hoje e continue a ver sem interrupções.',
      },
      due: {
        subject: 'O seu plano «{service}» vence hoje',
        heading: 'O seu plano vence hoje',
        intro: 'O seu plano vence hoje e a renovação ainda não foi paga. Renove já: se a fatura continuar por pagar a {date}, o serviço é suspenso.',
      },
      suspended: {
        subject: 'O seu plano «{service}» está suspenso',
        heading: 'O seu serviço está suspenso',
        intro: 'Não recebemos o pagamento da sua renovação, por isso o seu serviço está suspenso. Renove já e fica ativo de imediato, com os mesmos dados de acesso. Se a fatura continuar por pagar a {date}, o serviço termina definitivamente.',
      },
      terminated: {
        subject: 'O seu plano «{service}» terminou',
        heading: 'O seu serviço terminou',
        intro: 'A renovação não foi paga, por isso o seu serviço terminou e a fatura foi anulada. Já não pode ser renovado, mas pode encomendar um novo plano quando quiser.',
      },
    },
    plan: 'Plano',
    dueDate: 'Data de vencimento',
    renewedUntil: 'Renovado até',
    renew: 'Renovar agora',
    renewHint: 'A ligação inicia sessão em qualquer dispositivo e abre a página de renovação, onde escolhe como pagar. Funciona uma única vez, durante {days} dias; depois disso, peça uma ligação de acesso na página de início de sessão do checkout.',
    orderAgain: 'Encomendar um novo plano',
    orderAgainHint: 'A ligação abre o checkout, onde escolhe um plano e paga como habitualmente.',
    optOut: 'Não receber mais lembretes de renovação deste plano',
    optOutHint: 'Enviamos alguns lembretes em torno da data de vencimento de um plano. Para deixar de os receber para este plano, utilize esta ligação:',
    optedOutTitle: 'Sem mais lembretes de renovação',
    optedOutText: 'Não vai receber mais lembretes de renovação de {service}. O plano em si não mudou: ainda o pode renovar no checkout.',
  },
};
