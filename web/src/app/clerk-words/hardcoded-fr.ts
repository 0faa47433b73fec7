/**
 * French for what clerk-js 5.90.0 writes in English whatever its localization: strings written in its
 * source (not localization keys), so neither frFR nor clerk-words/fr.ts can reach them. relabel-clerk.ts
 * swaps them in the page while the interface is French and puts the English back when it is not.
 *
 * Each English string is exactly what the source writes (the file it comes from is named beside it);
 * a clerk-js upgrade must check them again, as the source can change them without notice.
 */

/** An accessible name (`aria-label`) or a placeholder, set on any element inside a Clerk component. */
export interface ClerkAttributeWords {
  attribute: 'aria-label' | 'placeholder';
  english: string;
  french: string;
}

/**
 * A text node's whole text (surrounding spaces aside), only inside elements matching `within`: the
 * texts are short and common ("Name", "Key"), so they are changed only where clerk-js writes them,
 * never in a name a user typed.
 */
export interface ClerkTextWords {
  within: string;
  /** The whole text, or a pattern for a text clerk-js builds around names (`$1` in `french` is its first group). */
  english: string | RegExp;
  french: string;
}

// prettier-ignore
export const CLERK_ATTRIBUTE_FR: readonly ClerkAttributeWords[] = [
  // elements/PasswordInput.tsx
  { attribute: 'aria-label', english: 'Show password', french: 'Afficher le mot de passe' },
  { attribute: 'aria-label', english: 'Hide password', french: 'Masquer le mot de passe' },
  // elements/IdentityPreview.tsx (sign-in's second step)
  { attribute: 'aria-label', english: 'Edit', french: 'Modifier' },
  // OrganizationSwitcher/OrganizationSwitcherTrigger.tsx
  { attribute: 'aria-label', english: 'Open organization switcher', french: "Ouvrir le sélecteur d'organisation" },
  { attribute: 'aria-label', english: 'Close organization switcher', french: "Fermer le sélecteur d'organisation" },
  // OrganizationSwitcher/UserMembershipList.tsx
  { attribute: 'aria-label', english: 'List of all organization memberships', french: 'Liste de vos organisations' },
  { attribute: 'aria-label', english: 'List of all accounts', french: 'Liste de vos comptes' },
  // UserButton/UserButtonTrigger.tsx, UserButtonPopover.tsx
  { attribute: 'aria-label', english: 'Open user button', french: 'Ouvrir le menu du compte' },
  { attribute: 'aria-label', english: 'Close user button', french: 'Fermer le menu du compte' },
  { attribute: 'aria-label', english: 'User button popover', french: 'Menu du compte' },
  // elements/ThreeDotsMenu.tsx
  { attribute: 'aria-label', english: 'Open menu', french: 'Ouvrir le menu' },
  { attribute: 'aria-label', english: 'Close menu', french: 'Fermer le menu' },
  // elements/Card/CardContent.tsx, elements/ProfileCard/ProfileCardRoot.tsx, elements/Drawer.tsx
  { attribute: 'aria-label', english: 'Close modal', french: 'Fermer la fenêtre' },
  { attribute: 'aria-label', english: 'Close drawer', french: 'Fermer le panneau' },
  // ApiKeys/ApiKeysTable.tsx
  { attribute: 'aria-label', english: 'API key (hidden)', french: 'Clé API (masquée)' },
  { attribute: 'aria-label', english: 'Show key', french: 'Afficher la clé' },
  { attribute: 'aria-label', english: 'Copy API key', french: 'Copier la clé API' },
  { attribute: 'aria-label', english: 'Copied API key to clipboard', french: 'Clé API copiée dans le presse-papiers' },
  // Subscriptions/SubscriptionsList.tsx
  { attribute: 'aria-label', english: 'Manage subscription', french: "Gérer l'abonnement" },
  // Checkout/CheckoutForm.tsx
  { attribute: 'aria-label', english: 'Payment method source', french: 'Moyen de paiement' },
  // elements/LineItems.tsx, Statements/Statement.tsx, PaymentAttempts/PaymentAttemptPage.tsx
  { attribute: 'aria-label', english: 'Copied', french: 'Copié' },
  // OrganizationProfile/MembersActions.tsx, MembersSearch.tsx
  { attribute: 'aria-label', english: 'Invite', french: 'Inviter' },
  { attribute: 'aria-label', english: 'Search', french: 'Rechercher' },
  // CreateOrganization/CreateOrganizationForm.tsx
  { attribute: 'aria-label', english: 'Upload organization logo', french: "Importer le logo de l'organisation" },
  // elements/CodeControl.tsx
  { attribute: 'aria-label', english: 'Enter verification code', french: 'Saisissez le code de vérification' },
  // UserProfile/MfaPhoneCodeScreen.tsx
  { attribute: 'aria-label', english: 'Add phone number', french: 'Ajouter un numéro de téléphone' },
  // primitives/Button.tsx (a button while it loads), PaymentSources/PaymentElementSkeleton.tsx
  { attribute: 'aria-label', english: 'Loading', french: 'Chargement' },
  { attribute: 'aria-label', english: 'Loading...', french: 'Chargement…' },
  // elements/Card/CardClerkAndPagesTag.tsx
  { attribute: 'aria-label', english: 'Clerk logo', french: 'Logo de Clerk' },
  // OAuthConsent/OAuthConsent.tsx: the redirect URL's tooltip trigger
  { attribute: 'aria-label', english: 'View full URL', french: "Voir l'URL complète" },
  // elements/PhoneInput/index.tsx (the country list's search field)
  { attribute: 'placeholder', english: 'Search country or code', french: 'Rechercher un pays ou un indicatif' },
];

// prettier-ignore
export const CLERK_TEXT_FR: readonly ClerkTextWords[] = [
  // ApiKeys/ApiKeysTable.tsx: the column headers.
  { within: '.cl-apiKeysTable th', english: 'Name', french: 'Nom' },
  { within: '.cl-apiKeysTable th', english: 'Last used', french: 'Dernière utilisation' },
  { within: '.cl-apiKeysTable th', english: 'Key', french: 'Clé' },
  // UserProfile/MfaSection.tsx: the second factors one can add.
  { within: '.cl-menuItem, .cl-menuItem *', english: 'SMS code', french: 'Code par SMS' },
  { within: '.cl-menuItem, .cl-menuItem *', english: 'Authenticator application', french: "Application d'authentification" },
  { within: '.cl-menuItem, .cl-menuItem *', english: 'Backup code', french: 'Codes de récupération' },
  // UserProfile/PasskeySection.tsx: "Created: {date}", "Last used: {date}" (the date is a text of its own).
  { within: '.cl-profileSectionItem__passkeys *', english: 'Created:', french: 'Créée :' },
  { within: '.cl-profileSectionItem__passkeys *', english: 'Last used:', french: 'Dernière utilisation :' },
  // UserProfile/ActiveDevicesSection.tsx: a session whose device or browser the provider does not name.
  { within: '.cl-activeDevice *', english: 'Desktop device', french: 'Ordinateur' },
  { within: '.cl-activeDevice *', english: 'Mobile device', french: 'Appareil mobile' },
  { within: '.cl-activeDevice *', english: 'Web browser', french: 'Navigateur web' },
  // elements/PhoneInput/index.tsx: the country search that finds nothing.
  { within: '.cl-selectOptionsContainer *', english: 'No countries found', french: 'Aucun pays trouvé' },
  // OAuthConsent/OAuthConsent.tsx (the product's /oauth/consent page): its buttons, sentences and the
  // redirect URL's tooltip and dialog, all written in English in 5.90.0's source. The names around them
  // (the application, the instance, the user's address) are separate texts or kept by the patterns.
  { within: '[class*="cl-"] button, [class*="cl-"] button *', english: 'Allow', french: 'Autoriser' },
  { within: '[class*="cl-"] button, [class*="cl-"] button *', english: 'Deny', french: 'Refuser' },
  { within: '[class*="cl-"], [class*="cl-"] *', english: /^wants to access (.+) on behalf of (.+)$/, french: 'souhaite accéder à $1 en votre nom ($2)' },
  { within: '[class*="cl-"], [class*="cl-"] *', english: /^This will allow (.+) access to:$/, french: "Cela permettra à $1 d'accéder à :" },
  { within: '[class*="cl-"], [class*="cl-"] *', english: 'Make sure that you trust', french: 'Assurez-vous de faire confiance à' },
  { within: '[class*="cl-"], [class*="cl-"] *', english: '. You may be sharing sensitive data with this site or app.', french: '. Vous pourriez partager des données sensibles avec ce site ou cette application.' },
  { within: '[class*="cl-"], [class*="cl-"] *', english: 'If you allow access, this app will redirect you to', french: "Si vous autorisez l'accès, cette application vous redirigera vers" },
  { within: '[class*="cl-"], [class*="cl-"] *', english: 'View full URL', french: "Voir l'URL complète" },
  { within: '[class*="cl-"], [class*="cl-"] *', english: 'Redirect URL', french: 'URL de redirection' },
  { within: '[class*="cl-"], [class*="cl-"] *', english: /^Make sure you trust (.+) and that this URL belongs to \1\.$/, french: 'Assurez-vous de faire confiance à $1 et que cette URL lui appartient.' },
];
