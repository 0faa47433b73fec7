export type Language = 'fr' | 'en';

export const WORDS = {
  fr: {
    title: 'Application satellite',
    intro: 'Ce que le serveur de cette application voit de vous (getAuth et clerkClient) :',
    signedOut: 'Vous n’êtes pas connecté.',
    signIn: 'Se connecter sur le produit',
    userId: 'Identifiant',
    email: 'Adresse e-mail',
    organization: 'Organisation active',
    noOrganization: 'aucune',
    signOut: 'Se déconnecter',
    product: 'Aller au produit',
    otherLanguage: 'English',
  },
  en: {
    title: 'Satellite application',
    intro: 'What this application’s server sees of you (getAuth and clerkClient):',
    signedOut: 'You are not signed in.',
    signIn: 'Sign in on the product',
    userId: 'User id',
    email: 'Email address',
    organization: 'Active organisation',
    noOrganization: 'none',
    signOut: 'Sign out',
    product: 'Go to the product',
    otherLanguage: 'Français',
  },
} as const satisfies Record<Language, Record<string, string>>;
