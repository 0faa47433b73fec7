import type { LocalizationResource } from '@clerk/types';

/**
 * Error codes clerk-js looks up by name (`unstable__errors.<code>`) that @clerk/types does not list; in
 * English clerk-js shows the server's `long_message`.
 */
const ERRORS_OUTSIDE_TYPES: Record<string, string> = {
  user_banned: "Vous n'êtes pas autorisé à vous connecter à cette application.",
};

/**
 * The product's French words for Clerk's screens, laid over @clerk/localizations' frFR, which lacks the
 * components added last (API keys, free trials, session tasks, the alternative phone-code provider) and
 * so left them blank or in English. Dates pass 'fr-FR' to Clerk's date modifiers: clerk-js formats with
 * the locale written in each string, never the resource's `locale`. Typography follows frFR (a space
 * before ':', '?' and '!').
 */
export const FR_WORDS: LocalizationResource = {
  badge__freeTrial: 'Essai gratuit',
  badge__pastDueAt: "Impayé depuis le {{ date | shortDate('fr-FR') }}",
  badge__pastDuePlan: 'Impayé',
  badge__trialEndsAt: "Essai jusqu'au {{ date | shortDate('fr-FR') }}",
  footerActionLink__alternativePhoneCodeProvider: 'Recevoir plutôt le code par SMS',
  formFieldInputPlaceholder__apiKeyDescription: 'Expliquez à quoi servira cette clé',
  formFieldInputPlaceholder__apiKeyExpirationDate: 'Choisissez une date',
  formFieldInputPlaceholder__apiKeyName: 'Saisissez le nom de votre clé secrète',
  formFieldLabel__apiKeyDescription: 'Description',
  formFieldLabel__apiKeyExpiration: 'Expiration',
  formFieldLabel__apiKeyName: 'Nom de la clé secrète',
  // The product's roles (contract ORG_ROLES): clerk-js shows roles[key], else the server's role name,
  // which is English.
  roles: {
    'org:admin': 'Administrateur',
    'org:member': 'Membre',
    'org:vciso': 'RSSI virtuel',
  },
  apiKeys: {
    action__add: 'Ajouter une clé',
    action__search: 'Rechercher des clés',
    createdAndExpirationStatus__expiresOn:
      "Créée le {{ createdDate | shortDate('fr-FR') }} • Expire le {{ expiresDate | longDate('fr-FR') }}",
    createdAndExpirationStatus__never: "Créée le {{ createdDate | shortDate('fr-FR') }} • N'expire jamais",
    detailsTitle__emptyRow: 'Aucune clé API',
    formButtonPrimary__add: 'Créer la clé',
    formFieldCaption__expiration__expiresOn: 'Expire le {{ date }}',
    formFieldCaption__expiration__never: "Cette clé n'expirera jamais",
    formFieldOption__expiration__1d: '1 jour',
    formFieldOption__expiration__7d: '7 jours',
    formFieldOption__expiration__30d: '30 jours',
    formFieldOption__expiration__60d: '60 jours',
    formFieldOption__expiration__90d: '90 jours',
    formFieldOption__expiration__180d: '180 jours',
    formFieldOption__expiration__1y: '1 an',
    formFieldOption__expiration__never: 'Jamais',
    formHint: 'Donnez un nom à la nouvelle clé. Vous pourrez la révoquer à tout moment.',
    formTitle: 'Ajouter une clé API',
    lastUsed__seconds: 'il y a {{seconds}} s',
    lastUsed__minutes: 'il y a {{minutes}} min',
    lastUsed__hours: 'il y a {{hours}} h',
    lastUsed__days: 'il y a {{days}} j',
    lastUsed__months: 'il y a {{months}} mois',
    lastUsed__years: 'il y a {{years}} an(s)',
    menuAction__revoke: 'Révoquer la clé',
    revokeConfirmation: {
      confirmationText: 'Révoquer',
      formButtonPrimary__revoke: 'Révoquer la clé',
      formHint: 'Voulez-vous vraiment supprimer cette clé secrète ?',
      formTitle: 'Révoquer la clé secrète « {{apiKeyName}} » ?',
    },
  },
  commerce: {
    cancelFreeTrial: "Annuler l'essai gratuit",
    cancelFreeTrialAccessUntil:
      "Votre essai reste actif jusqu'au {{ date | longDate('fr-FR') }}. Vous perdrez ensuite l'accès aux fonctionnalités de l'essai. Rien ne vous sera facturé.",
    cancelFreeTrialTitle: "Annuler l'essai gratuit de l'offre {{plan}} ?",
    // frFR's says only "Accès annulé jusqu'au", without the plan or the date.
    cancelSubscriptionAccessUntil:
      "Vous pouvez utiliser les fonctionnalités de l'offre « {{plan}} » jusqu'au {{ date | longDate('fr-FR') }} ; vous n'y aurez plus accès ensuite.",
    // frFR's shortened or literal ones: "Pas de charge", "Ne peut pas souscrire mensuellement", "plan".
    billedMonthlyOnly: 'Facturation mensuelle uniquement',
    cancelSubscriptionNoCharge: 'Cet abonnement ne vous sera pas facturé.',
    cancelSubscriptionTitle: "Résilier l'abonnement {{plan}} ?",
    cannotSubscribeMonthly:
      'Cette offre ne peut pas être payée au mois. Pour y souscrire, choisissez le paiement annuel.',
    defaultFreePlanActive: "Vous bénéficiez actuellement de l'offre gratuite",
    cannotSubscribeUnrecoverable:
      'Vous ne pouvez pas souscrire cette offre : votre abonnement actuel est plus cher que celle-ci.',
    checkout: {
      lineItems: { title__freeTrialEndsAt: "Fin de l'essai le" },
      pastDueNotice: "Votre abonnement précédent était impayé, aucun paiement n'a été reçu.",
      title__trialSuccess: 'Votre essai a bien commencé !',
      totalDueAfterTrial: "Total dû à la fin de l'essai, dans {{days}} jours",
    },
    credit: 'Avoir',
    keepFreeTrial: "Conserver l'essai gratuit",
    pastDue: 'Impayé',
    paymentSource: { dev: { anyNumbers: 'Chiffres au choix' } },
    startFreeTrial: "Commencer l'essai gratuit",
    startFreeTrial__days: "Commencer l'essai gratuit de {{days}} jours",
    subscriptionDetails: {
      beginsOn: 'Débute le',
      currentBillingCycle: 'Période de facturation en cours',
      endsOn: 'Se termine le',
      firstPaymentAmount: 'Montant du premier paiement',
      firstPaymentOn: 'Premier paiement le',
      nextPaymentAmount: 'Montant du prochain paiement',
      nextPaymentOn: 'Prochain paiement le',
      pastDueAt: 'Impayé depuis le',
      renewsAt: 'Renouvellement le',
      subscribedOn: 'Souscrit le',
      title: 'Abonnement',
      trialEndsOn: "Fin de l'essai le",
      trialStartedOn: "Début de l'essai le",
    },
    switchToAnnualWithAnnualPrice: "Passer à l'annuel : {{currency}}{{price}} / an",
    switchToMonthlyWithPrice: 'Passer au mensuel : {{currency}}{{price}} / mois',
    totalDue: 'Total dû',
    viewPayment: 'Voir le paiement',
  },
  // frFR leaves a few English words in place: "Plans" (a blueprint in French), "Danger".
  organizationProfile: {
    apiKeysPage: { title: 'Clés API' },
    billingPage: { start: { headerTitle__payments: 'Paiements', headerTitle__plans: 'Offres' } },
    navbar: { apiKeys: 'Clés API' },
    plansPage: { title: 'Offres' },
    profilePage: { dangerSection: { title: 'Zone de danger' } },
    verifiedDomainPage: { start: { headerTitle__danger: 'Zone de danger' } },
  },
  signIn: {
    emailLink: { loading: { title: 'Connexion en cours…' } },
    alternativePhoneCodeProvider: {
      formTitle: 'Code de vérification',
      resendButton: "Vous n'avez pas reçu de code ? Renvoyer",
      subtitle: 'pour continuer vers {{applicationName}}',
      title: 'Consultez {{provider}}',
    },
    start: {
      alternativePhoneCodeProvider: {
        actionLink: 'Utiliser une autre méthode',
        label: 'Numéro de téléphone {{provider}}',
        subtitle:
          'Saisissez votre numéro de téléphone pour recevoir un code de vérification sur {{provider}}.',
        title: 'Se connecter à {{applicationName}} avec {{provider}}',
      },
      titleCombined: 'Continuer vers {{applicationName}}',
    },
  },
  signUp: {
    alternativePhoneCodeProvider: {
      resendButton: "Vous n'avez pas reçu de code ? Renvoyer",
      subtitle: 'Saisissez le code de vérification envoyé sur {{provider}}',
      title: 'Vérifiez votre {{provider}}',
    },
    start: {
      alternativePhoneCodeProvider: {
        actionLink: 'Utiliser une autre méthode',
        label: 'Numéro de téléphone {{provider}}',
        subtitle:
          'Saisissez votre numéro de téléphone pour recevoir un code de vérification sur {{provider}}.',
        title: "S'inscrire à {{applicationName}} avec {{provider}}",
      },
    },
  },
  socialButtonsBlockButtonManyInView: '{{provider|titleize}}',
  taskChooseOrganization: {
    chooseOrganization: {
      action__createOrganization: 'Créer une organisation',
      action__invitationAccept: 'Rejoindre',
      action__suggestionsAccept: 'Demander à rejoindre',
      subtitle: 'Rejoignez une organisation existante ou créez-en une nouvelle',
      suggestionsAcceptedLabel: "En attente d'approbation",
      title: 'Choisissez une organisation',
    },
    createOrganization: {
      formButtonReset: 'Annuler',
      formButtonSubmit: 'Continuer',
      formFieldInputPlaceholder__name: 'Mon organisation',
      formFieldInputPlaceholder__slug: 'mon-organisation',
      formFieldLabel__name: 'Nom',
      formFieldLabel__slug: 'Identifiant',
      subtitle: 'Renseignez votre organisation pour continuer',
      title: 'Créez votre organisation',
    },
    signOut: {
      actionLink: 'Se déconnecter',
      actionText: 'Connecté en tant que {{identifier}}',
    },
  },
  unstable__errors: {
    ...ERRORS_OUTSIDE_TYPES,
    organization_not_found_or_unauthorized:
      "Vous n'êtes plus membre de cette organisation. Choisissez-en une autre ou créez-en une.",
    organization_not_found_or_unauthorized_with_create_organization_disabled:
      "Vous n'êtes plus membre de cette organisation. Choisissez-en une autre.",
  },
  userProfile: {
    apiKeysPage: { title: 'Clés API' },
    billingPage: { start: { headerTitle__payments: 'Paiements', headerTitle__plans: 'Offres' } },
    emailAddressPage: {
      enterpriseSSOLink: {
        formButton: 'Cliquez pour vous connecter',
        formSubtitle: 'Terminez la connexion avec {{identifier}}',
      },
      formHint: "Vous devrez vérifier cette adresse e-mail avant qu'elle soit ajoutée à votre compte.",
    },
    navbar: { apiKeys: 'Clés API' },
    plansPage: { title: 'Offres' },
  },
};
